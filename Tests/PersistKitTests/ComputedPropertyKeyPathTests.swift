import Foundation
import PersistKit
import PersistKitTestSupport
import XCTest

/// A computed property never stands in for the attributes it reads (issue 25, item 1): every
/// shape is refused, in typed predicates, `evaluate(with:)`, sorts, section keys and
/// `#Predicate`, with a message that names no address (item 15).
final class ComputedPropertyKeyPathTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var context: ManagedObjectContext!
    private var foundation: CPBook!
    private var asimov: CPAuthor!

    override func setUpWithError() throws {
        directory = TemporaryDirectory()
        let model = try ManagedObjectModel(entities: [CPBook.self, CPAuthor.self, CPTag.self])
        let container = try PersistentContainer(model: model, store: .sqlite(directory.file("books.sqlite")))
        context = container.newContext()
        asimov = CPAuthor(context: context)
        asimov.name = "Asimov"
        let classic = CPTag(context: context)
        classic.name = "classic"
        foundation = CPBook(context: context)
        foundation.title = "Foundation"
        foundation.pages = 255
        foundation.author = asimov
        foundation.tags = [classic]
        for (title, pages) in [("Dune", 600), ("", 0), ("  Spaced  ", 10)] {
            let book = CPBook(context: context)
            book.title = title
            book.pages = pages
        }
        try context.save()
    }

    override func tearDown() {
        context = nil
        foundation = nil
        asimov = nil
        directory = nil
    }

    /// The error a refused key path must give: it says it is a computed property of the
    /// entity, and prints no address.
    private func assertNamesTheProperty(_ error: PersistError, _ shape: String, file: StaticString, line: UInt) {
        XCTAssertTrue(error.message.contains("a computed property of CP"), "\(shape): \(error.message)", file: file, line: line)
        XCTAssertFalse(error.message.contains("0x"), "\(shape): the message prints an address: \(error.message)", file: file, line: line)
    }

    /// `keyPath` is refused as a predicate (fetched and evaluated), a sort and a section key.
    private func assertRefused<Value: AttributeValue>(_ keyPath: KeyPath<CPBook, Value>, _ value: Value, _ shape: String,
                                                      file: StaticString = #filePath, line: UInt = #line) throws {
        let predicate: FetchPredicate<CPBook> = keyPath == value
        expectError(try context.fetch(FetchRequest<CPBook>(predicate: predicate)), .invalidPredicate, "\(shape): fetch",
                    file: file, line: line) { assertNamesTheProperty($0, shape, file: file, line: line) }
        expectError(try predicate.evaluate(with: foundation), .invalidPredicate, "\(shape): evaluate(with:)", file: file, line: line)
        expectError(try context.fetch(FetchRequest<CPBook>(sortBy: [FetchSortDescriptor(keyPath)])), .invalidRequest,
                    "\(shape): sort", file: file, line: line) { assertNamesTheProperty($0, shape, file: file, line: line) }
        let sections = FetchedResultsController(fetchRequest: FetchRequest<CPBook>(sortBy: [FetchSortDescriptor(\.title)]),
                                                context: context, sectionNameKeyPath: keyPath)
        expectError(try sections.performFetch(), .misuse, "\(shape): section key", file: file, line: line) {
            assertNamesTheProperty($0, shape, file: file, line: line)
        }
    }

    /// The attributes themselves, in the same four forms, answer (so the refusals below are
    /// about the computed properties, not the forms).
    func testAttributesAreAccepted() throws {
        XCTAssertEqual(try context.fetch(FetchRequest<CPBook>(predicate: \.title == "Foundation")), [foundation])
        XCTAssertTrue(try (\CPBook.title == "Foundation").evaluate(with: foundation))
        XCTAssertEqual(try context.fetch(FetchRequest<CPBook>(predicate: \.author?.name == "Asimov")), [foundation])
        XCTAssertEqual(try context.fetch(FetchRequest<CPBook>(predicate: \.author == asimov)), [foundation])
        XCTAssertEqual(try context.fetch(FetchRequest<CPBook>(predicate: .any(\.tags, \.name == "classic"))), [foundation])
        XCTAssertEqual(try context.fetch(FetchRequest<CPBook>(predicate: \.tags.count == 1)), [foundation])
        XCTAssertEqual(try context.fetch(FetchRequest<CPBook>(predicate: \.genre == .fiction)).count, 4)
        XCTAssertEqual(try context.fetch(FetchRequest<CPBook>(predicate: \.format == .paperback)).count, 4)
        XCTAssertEqual(try context.fetch(FetchRequest<CPBook>(sortBy: [FetchSortDescriptor(\.pages)])).map(\.pages), [0, 10, 255, 600])
        XCTAssertEqual(try context.fetch(FetchRequest<CPBook>(predicate: #Predicate { $0.author?.name == "Asimov" })), [foundation])
        let sections = FetchedResultsController(fetchRequest: FetchRequest<CPBook>(sortBy: [FetchSortDescriptor(\.genre)]),
                                                context: context, sectionNameKeyPath: \.genre)
        try sections.performFetch()
        XCTAssertEqual(sections.sections.map(\.name), ["fiction"])
    }

    func testTheSameTypeAsTheOneAttributeItReads() throws {
        // The case: `\.shout == "Foundation"` matched the book titled "Foundation".
        try assertRefused(\.shout, "Foundation", "shout")
        try assertRefused(\.shout, "FOUNDATION", "shout")
        try assertRefused(\.displayTitle, "Foundation", "displayTitle")
        try assertRefused(\.trimmedTitle, "Spaced", "trimmedTitle (settable)")
    }

    func testAnotherTypeThanTheAttributeItReads() throws {
        try assertRefused(\.titleLength, 10, "titleLength")
    }

    func testSeveralAttributesOrOneReadTwice() throws {
        try assertRefused(\.heading, "Foundation: ", "heading")
        try assertRefused(\.twice, "FoundationFoundation", "twice")
        try assertRefused(\.shelf, .essay, "shelf")
    }

    func testNumbersDatesAndEnumsComputedFromAttributes() throws {
        try assertRefused(\.doubledPages, 510, "doubledPages")
        try assertRefused(\.publishedOrLater, .distantFuture, "publishedOrLater")
    }

    func testReadsNothingStored() throws {
        try assertRefused(\.constant, "Foundation", "constant")
    }

    func testThroughARelationship() throws {
        try assertRefused(\.authorShout, "ASIMOV", "authorShout")
        try assertRefused(\.byline, "anonymous", "byline")
        try assertRefused(\.authorGenre, .poetry, "authorGenre")
        try assertRefused(\.authorName, "Asimov", "authorName")
        // A computed property of the related entity, at the end of a real path.
        try assertRefused(\.author?.shout, "ASIMOV", "author?.shout")
    }

    func testRelationshipsUnderAnotherName() throws {
        expectError(try context.fetch(FetchRequest<CPBook>(predicate: \.writer == asimov)), .invalidPredicate, "writer")
        expectError(try context.fetch(FetchRequest<CPBook>(predicate: \.writer == nil)), .invalidPredicate, "writer == nil")
        expectError(try context.fetch(FetchRequest<CPBook>(predicate: .any(\.labels, \.name == "classic"))), .invalidPredicate, "labels")
        expectError(try context.fetch(FetchRequest<CPBook>(predicate: FetchPredicate.count(\.labels) > 0)), .invalidPredicate, "labels count")
        expectError(try context.fetch(FetchRequest<CPBook>(predicate: \.labelCount == 2)), .invalidPredicate, "labelCount")
    }

    func testFoundationPredicates() throws {
        let essay = CPGenre.essay
        let refused: [(String, Predicate<CPBook>)] = [
            ("shout", #Predicate { $0.shout == "FOUNDATION" }),
            ("displayTitle", #Predicate { $0.displayTitle == "Foundation" }),
            ("titleLength", #Predicate { $0.titleLength == 10 }),
            ("twice", #Predicate { $0.twice == "FoundationFoundation" }),
            ("shelf", #Predicate { $0.shelf == essay }),
            ("doubledPages", #Predicate { $0.doubledPages > 500 }),
            ("authorShout", #Predicate { $0.authorShout == "ASIMOV" }),
            ("byline", #Predicate { $0.byline == "anonymous" }),
            ("authorName", #Predicate { $0.authorName == "Asimov" }),
            ("writer", #Predicate { $0.writer == nil }),
            ("labels", #Predicate { $0.labels.count > 0 }),
            ("author?.shout", #Predicate { $0.author?.shout == "ASIMOV" }),
        ]
        for (shape, predicate) in refused {
            expectError(try context.fetch(FetchRequest<CPBook>(predicate: predicate)), .invalidPredicate, "#Predicate \(shape)") {
                XCTAssertFalse($0.message.contains("0x"), "#Predicate \(shape): \($0.message)")
            }
        }
    }

    /// A key path resolved once is remembered: the answer must not depend on which was asked first.
    func testAnAttributeAskedAfterItsComputedTwinIsStillAnAttribute() throws {
        expectError(try context.fetch(FetchRequest<CPBook>(predicate: \.shout == "FOUNDATION")), .invalidPredicate)
        XCTAssertEqual(try context.fetch(FetchRequest<CPBook>(predicate: \.title == "Foundation")), [foundation])
        expectError(try context.fetch(FetchRequest<CPBook>(predicate: \.shout == "FOUNDATION")), .invalidPredicate)
    }

    /// Swift prints a key path it cannot name as an address (`\CPBook.<computed 0x55e3f6b51540
    /// (Int)>`): no error, nor a sort descriptor's key, prints one (issue 25, item 15).
    func testNoMessagePrintsAnAddress() throws {
        let predicates: [(String, FetchPredicate<CPBook>)] = [
            ("title.count", \.title.count > 3),
            ("titleLength", \.titleLength > 3),
            ("writer", \.writer == asimov),
            ("author?.shout", .beginsWith(\.author?.shout, "A")),
            ("labelCount", \.labelCount > 1),
        ]
        for (shape, predicate) in predicates {
            expectError(try context.fetch(FetchRequest<CPBook>(predicate: predicate)), .invalidPredicate, shape) { error in
                XCTAssertFalse(error.message.contains("0x"), "\(shape): \(error.message)")
                XCTAssertTrue(error.message.contains("CPBook"), "\(shape) names the entity: \(error.message)")
            }
        }
        for sort in [FetchSortDescriptor(\CPBook.titleLength), FetchSortDescriptor(\CPBook.title.count)] {
            XCTAssertFalse(sort.key.contains("0x"), sort.key)
            expectError(try context.fetch(FetchRequest<CPBook>(sortBy: [sort])), .invalidRequest) { error in
                XCTAssertFalse(error.message.contains("0x"), error.message)
            }
        }
    }
}
