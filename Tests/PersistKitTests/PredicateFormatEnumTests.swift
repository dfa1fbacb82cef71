import Foundation
import PersistKit
import PersistKitTestSupport
import XCTest

/// A format string comparing an enum attribute with a raw value that is none of its cases
/// throws, as any other value that does not fit its attribute (issue 25, item 17): it used to
/// match nothing, silently.
final class PredicateFormatEnumTests: XCTestCase {
    func testARawValueThatIsNoCaseIsRefused() throws {
        for format in ["genre == 'poetryy'", "genre != 'Poetry'", "genre IN {'fiction', 'novel'}", "author.favourite == 'drama'"] {
            expectError(try FetchPredicate<CPBook>(format: format), .invalidPredicate, format) { error in
                XCTAssertTrue(error.message.contains("is not a raw value of CPGenre"), "\(format): \(error.message)")
                XCTAssertTrue(error.message.contains("'fiction', 'poetry', 'essay'"), "lists the cases: \(error.message)")
            }
        }
        expectError(try FetchPredicate<CPBook>(format: "genre == %@", "novel"), .invalidPredicate, "an argument")
        // An enum that is not CaseIterable: refused too, without a list.
        expectError(try FetchPredicate<CPBook>(format: "format == 'ebook'"), .invalidPredicate, "format") { error in
            XCTAssertTrue(error.message.contains("is not a raw value of CPFormat"), error.message)
        }
        let template = try FetchPredicate<CPBook>(format: "genre == $GENRE")
        expectError(try template.withSubstitutionVariables(["GENRE": "novel"]), .invalidPredicate, "a variable")
    }

    func testCasesStillMatch() throws {
        let directory = TemporaryDirectory()
        let model = try ManagedObjectModel(entities: [CPBook.self, CPAuthor.self, CPTag.self])
        let context = try PersistentContainer(model: model, store: .sqlite(directory.file("books.sqlite"))).newContext()
        let poem = CPBook(context: context)
        poem.title = "Odes"
        poem.genre = .poetry
        let novel = CPBook(context: context)
        novel.title = "Dune"
        try context.save()
        for (format, expected) in [("genre == 'poetry'", ["Odes"]), ("genre != 'poetry'", ["Dune"]),
                                   ("genre IN {'poetry', 'essay'}", ["Odes"]), ("genre == nil", []),
                                   ("genre < 'poetryy'", ["Dune", "Odes"]), ("format == 'paperback'", ["Dune", "Odes"])] {
            let request = FetchRequest<CPBook>(predicate: try FetchPredicate(format: format), sortBy: [FetchSortDescriptor(\.title)])
            XCTAssertEqual(try context.fetch(request).map(\.title), expected, format)
        }
        XCTAssertEqual(try context.fetch(FetchRequest<CPBook>(predicate: try FetchPredicate(format: "genre == %@", CPGenre.poetry))).count, 1)
    }
}
