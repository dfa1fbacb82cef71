import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// An author whose books forbid deleting them (to-many, deny).
final class DNAuthor: ManagedObject {
    @Attribute var name: String
    @Relationship(deleteRule: .deny) var books: Set<DNBook>
}

/// A book: by an author, in a series it forbids being deleted from (to-one, deny), on shelves.
final class DNBook: ManagedObject {
    @Attribute var title: String
    @Relationship(inverse: \DNAuthor.books) var author: DNAuthor?
    @Relationship(deleteRule: .deny) var series: DNSeries?
    @Relationship(inverse: \DNShelf.books) var shelves: Set<DNShelf>
}

final class DNSeries: ManagedObject {
    @Attribute var name: String
    @Relationship(inverse: \DNBook.series) var books: Set<DNBook>
}

/// A shelf whose books forbid deleting it (many-to-many, deny).
final class DNShelf: ManagedObject {
    @Attribute var name: String
    @Relationship(deleteRule: .deny) var books: Set<DNBook>
}

/// `.deny` is Core Data's: `delete(_:)` marks the object deleted and changes neither side of a
/// denied relationship; the save is refused while it holds objects; rollback restores the
/// object. Both sides agree at every step, in reads and in predicates (issue 25, item 2).
final class DenyDeleteRuleTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var container: PersistentContainer!
    private var context: ManagedObjectContext!
    private var author: DNAuthor!
    private var book: DNBook!
    private var series: DNSeries!
    private var shelf: DNShelf!

    override func setUpWithError() throws {
        directory = TemporaryDirectory()
        let model = try ManagedObjectModel(entities: [DNAuthor.self, DNBook.self, DNSeries.self, DNShelf.self])
        container = try PersistentContainer(model: model, store: .sqlite(directory.file("books.sqlite")))
        context = container.newContext()
        author = DNAuthor(context: context)
        author.name = "Asimov"
        series = DNSeries(context: context)
        series.name = "Foundation series"
        shelf = DNShelf(context: context)
        shelf.name = "Classics"
        book = DNBook(context: context)
        book.title = "Foundation"
        book.author = author
        book.series = series
        book.shelves = [shelf]
        try context.save()
    }

    override func tearDown() {
        context = nil
        container = nil
        author = nil
        book = nil
        series = nil
        shelf = nil
        directory = nil
    }

    /// Every link of the four objects is seen from both of its ends. (A deleted object's own
    /// relationships other than `.deny` ones still show what they held, as Core Data's do until
    /// the save; the rule took it out of the other side.)
    private func assertBothSidesAgree(_ step: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let objects: [ManagedObject] = [author, book, series, shelf]
        for object in objects {
            for relationship in object.entity.relationships where !object.isDeleted || relationship.deleteRule == .deny {
                guard let inverse = relationship.inverseName else { continue }
                for target in try object.relatedObjects(forKey: relationship.name) {
                    XCTAssertTrue(try target.relatedObjects(forKey: inverse).contains { $0 === object },
                                  "\(step): \(object.entity.name).\(relationship.name) holds a \(target.entity.name) whose \(inverse) does not hold it",
                                  file: file, line: line)
                }
            }
        }
    }

    /// What the books' predicates see of `author` and `series`, in memory and in SQL.
    private func titles(_ format: String, _ arguments: Any..., pending: Bool = true) throws -> [String] {
        var request = FetchRequest<DNBook>(predicate: try FetchPredicate(format: format, argumentArray: arguments))
        request.includesPendingChanges = pending
        return try context.fetch(request).map(\.title)
    }

    func testADeniedToManyKeepsBothSidesUntilTheSave() throws {
        context.delete(author)
        XCTAssertTrue(author.isDeleted)
        XCTAssertEqual(author.books, [book], "the deleted author still holds its book")
        XCTAssertTrue(book.author === author, "and the book still names its author: neither side changed")
        try assertBothSidesAgree("after delete")
        XCTAssertEqual(try titles("author == nil"), [], "the issue's case: the book has an author until the delete is saved")
        XCTAssertEqual(try titles("author == %@", author as Any), ["Foundation"])
        XCTAssertEqual(try titles("author.name == 'Asimov'"), ["Foundation"])
        XCTAssertEqual(try titles("author == nil", pending: false), [])

        expectError(try context.save(), .validation) { error in
            XCTAssertEqual(error.attribute, "books")
            XCTAssertTrue(error.message.contains("deny"), error.message)
        }
        XCTAssertTrue(author.isDeleted, "a refused save leaves the context as it was")
        XCTAssertTrue(book.author === author)
        try assertBothSidesAgree("after the refused save")

        context.rollback()
        XCTAssertFalse(author.isDeleted)
        XCTAssertEqual(author.books, [book])
        XCTAssertTrue(book.author === author)
        try assertBothSidesAgree("after rollback")
        XCTAssertEqual(try titles("author == nil"), [])
    }

    func testMovingTheObjectsAwayLetsTheDeletionBeSaved() throws {
        context.delete(author)
        let other = DNAuthor(context: context)
        other.name = "Herbert"
        book.author = other
        XCTAssertEqual(author.books, [], "the book left the deleted author")
        try assertBothSidesAgree("after moving the book")
        try context.save()
        XCTAssertTrue(book.author === other)
        XCTAssertEqual(try titles("author.name == 'Herbert'", pending: false), ["Foundation"])
        XCTAssertEqual(try container.newContext().count(for: FetchRequest<DNAuthor>(predicate: \.name == "Asimov")), 0)
    }

    func testDeletingTheObjectsTooLetsTheDeletionBeSaved() throws {
        context.delete(series)   // the book's series forbids deleting the book; deleting it lets go
        context.delete(author)
        context.delete(book)
        try assertBothSidesAgree("both deleted")
        try context.save()
        XCTAssertEqual(try container.newContext().count(for: FetchRequest<DNBook>()), 0)
        XCTAssertEqual(try container.newContext().count(for: FetchRequest<DNAuthor>()), 0)
    }

    func testADeniedToOneKeepsBothSides() throws {
        context.delete(book)
        XCTAssertTrue(book.series === series)
        XCTAssertEqual(series.books, [book], "the series still holds the deleted book")
        XCTAssertEqual(author.books, [], "a nullified relationship let go at once")
        try assertBothSidesAgree("after delete")
        XCTAssertEqual(try container.newContext().fetch(FetchRequest<DNSeries>()).count, 1)
        var request = FetchRequest<DNSeries>(predicate: try FetchPredicate(format: "books.@count == 1"))
        XCTAssertEqual(try context.fetch(request).count, 1, "in memory, the series still holds it")
        request.includesPendingChanges = false
        XCTAssertEqual(try context.fetch(request).count, 1)
        expectError(try context.save(), .validation) { error in
            XCTAssertEqual(error.attribute, "series")
        }
        try assertBothSidesAgree("after the refused save")
        context.rollback()
        XCTAssertFalse(book.isDeleted)
        XCTAssertTrue(book.author === author, "rollback restores the nullified side too")
        try assertBothSidesAgree("after rollback")
    }

    func testADeniedManyToManyKeepsBothSides() throws {
        context.delete(shelf)
        XCTAssertEqual(shelf.books, [book])
        XCTAssertEqual(book.shelves, [shelf], "the book is still on the deleted shelf")
        try assertBothSidesAgree("after delete")
        XCTAssertEqual(try titles("ANY shelves.name == 'Classics'"), ["Foundation"])
        expectError(try context.save(), .validation) { error in
            XCTAssertEqual(error.attribute, "books")
        }
        try assertBothSidesAgree("after the refused save")
        book.shelves = []
        XCTAssertEqual(shelf.books, [])
        try context.save()
        XCTAssertEqual(try container.newContext().count(for: FetchRequest<DNShelf>()), 0)
    }

    /// An object never saved is not in the store, so there is nothing to deny: as Core Data's
    /// `deletedObjects` leaves it out, deleting it forgets it, and every relationship lets go.
    func testAnUnsavedObjectIsForgottenWhateverTheRule() throws {
        let draft = DNAuthor(context: context)
        draft.name = "Draft"
        let chapter = DNBook(context: context)
        chapter.title = "Chapter"
        chapter.author = draft
        context.delete(draft)
        XCTAssertNil(chapter.author)
        XCTAssertEqual(draft.books, [], "both sides let go")
        XCTAssertEqual(try titles("author == nil"), ["Chapter"])
        try context.save()
        let reader = container.newContext()
        let stored = try XCTUnwrap(reader.fetch(FetchRequest<DNBook>(predicate: \.title == "Chapter")).first)
        XCTAssertNil(stored.author)
    }
}
