import Foundation
import PersistKit
import PersistKitTestSupport
import XCTest

/// The code of the DocC article Modeling Data, compiled and run (`DocumentationCodeBlocksTests`
/// checks that every block of the article stands here).
enum ModelingDataArticle {
    enum Priority: Int, AttributeValue { case low, normal, high }

    final class TaskItem: ManagedObject {
        override class var entityName: String { "Task" }
        @Attribute var name: String               // required
        @Attribute var notes: String?             // optional
        @Attribute var due: Date?                 // optional
        @Attribute var isComplete = false         // default false
        @Attribute var priority: Priority = .normal
        @Attribute var createdAt = Date(timeIntervalSince1970: 0)

        override func awakeFromInsert() {
            createdAt = Date()                    // set for each new object
        }
    }

    static func makeModel() throws -> ManagedObjectModel {
        let model = try ManagedObjectModel(entities: [TaskItem.self])
        return model
    }

    static func requiredAttributes(of model: ManagedObjectModel) -> (name: Bool?, isComplete: Bool?) {
        let entity = model.entity(named: "Task")
        let nameIsRequired = entity?.attribute(named: "name")?.isRequired              // true
        let isCompleteIsRequired = entity?.attribute(named: "isComplete")?.isRequired  // false: it has a default
        return (nameIsRequired, isCompleteIsRequired)
    }

    enum Status: String, AttributeValue { case open, waiting, done }   // TEXT: "open", ...
    struct Location: Codable, AttributeValue {                          // TEXT: JSON
        var latitude: Double
        var longitude: Double
    }

    final class Place: ManagedObject {
        @Attribute var status: Status = .open
        @Attribute var location: Location?
    }

    /// An amount of money in cents, stored as an INTEGER column.
    struct Cents: AttributeValue {
        var value: Int64
        init(_ value: Int64) { self.value = value }

        static var attributeType: AttributeType { .integer64 }

        init?(storedValue: SQLValue) {
            guard case .integer(let value) = storedValue else { return nil }
            self.value = value
        }

        func makeStoredValue() throws -> SQLValue { .integer(value) }
    }

    final class Expense: ManagedObject {
        @Attribute var amount = Cents(0)
        @Attribute var refunded: Cents?
    }

    static func largeExpenses() -> FetchPredicate<Expense> {
        let large: FetchPredicate<Expense> = \.amount >= Cents(100_00)
        return large
    }

    final class Account: ManagedObject {
        override class var uniquenessConstraints: [[String]] { [["team", "handle"]] }
        @Attribute(.unique) var email: String
        @Attribute var team: String
        @Attribute var handle: String
    }

    /// The article's schema test, compiled (not run: it reads a schema file of the reader's package).
    final class SchemaTests {
        func testModelMatchesCommittedDocument() throws {
            let url = URL(fileURLWithPath: #filePath)          // Tests/MyModelTests/SchemaTests.swift
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Schema/MyModel/1.json")
            let committed = try ManagedObjectModel(document: Data(contentsOf: url))
            let model = try ManagedObjectModel(entities: [TaskItem.self])
            XCTAssertEqual(committed.versionHash, model.versionHash)
        }
    }
}

final class ModelingDataArticleTests: XCTestCase {
    func testTheArticleRuns() throws {
        let model = try ModelingDataArticle.makeModel()
        let required = ModelingDataArticle.requiredAttributes(of: model)
        XCTAssertEqual(required.name, true)
        XCTAssertEqual(required.isComplete, false)

        let directory = TemporaryDirectory()
        let all = try ManagedObjectModel(entities: [ModelingDataArticle.TaskItem.self, ModelingDataArticle.Place.self,
                                                    ModelingDataArticle.Expense.self, ModelingDataArticle.Account.self])
        let context = try PersistentContainer(model: all, store: .sqlite(directory.file("model.sqlite"))).newContext()
        let task = ModelingDataArticle.TaskItem(context: context)
        task.name = "set in awakeFromInsert"
        XCTAssertGreaterThan(task.createdAt, Date(timeIntervalSince1970: 0))
        let place = ModelingDataArticle.Place(context: context)
        place.location = ModelingDataArticle.Location(latitude: 1, longitude: 2)
        for cents in [Int64(99_99), 100_00, 250_00] {
            ModelingDataArticle.Expense(context: context).amount = ModelingDataArticle.Cents(cents)
        }
        let account = ModelingDataArticle.Account(context: context)
        account.email = "a@example.com"
        account.team = "t"
        account.handle = "h"
        try context.save()
        XCTAssertEqual(try context.fetch(FetchRequest(predicate: ModelingDataArticle.largeExpenses())).map(\.amount.value).sorted(),
                       [100_00, 250_00])
        XCTAssertEqual(all.entity(named: "Account")?.uniquenessConstraints.count, 2, "(team, handle) and email")
    }
}
