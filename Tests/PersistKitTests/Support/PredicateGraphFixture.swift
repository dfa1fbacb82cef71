import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A small saved graph with every shape the relationship predicates read: a project without
/// a name, one without an owner, one without tasks; a task without a project, tasks without
/// tags, tags without weight, a blocker chain and watchers.
///
/// | task         | rank | project | tags           | other                 |
/// |--------------|------|---------|----------------|-----------------------|
/// | Buy milk     | 1    | Home    | urgent         |                       |
/// | Call mom     | 2    | Home    | urgent, later  |                       |
/// | Fix roof     | nil  | Home    |                |                       |
/// | Write report | 5    | Work    | xray           | blocked by Buy milk   |
/// | Plan trip    | 3    | Work    | later          |                       |
/// | Weed beds    | nil  | (nil)   | urgent, xray   | watched by Ann, Bob   |
/// | Loose end    | 7    | none    |                | blocked by Weed beds  |
///
/// Projects: Home (rank 1, budget 10.5, owner Ann), Work (rank 2, no budget, owner Bob), a
/// project with no name (rank 3, budget 2, no owner), Empty (rank 4, owner Ann, no tasks).
/// Tags: urgent (weight 3), later (no weight), xray (weight 1).
final class PredicateGraphFixture {
    let directory = TemporaryDirectory()
    let container: PersistentContainer
    let context: ManagedObjectContext
    var projects: [String: RPProject] = [:]
    var tags: [String: RPTag] = [:]
    var tasks: [String: RPTask] = [:]
    var owners: [String: RPOwner] = [:]

    init(save: Bool = true) throws {
        let model = try ManagedObjectModel(entities: predicateGraphEntities)
        container = try PersistentContainer(model: model, store: .sqlite(directory.file("fixture.sqlite")))
        context = container.newContext()
        for name in ["Ann", "Bob"] {
            let owner = RPOwner(context: context)
            owner.name = name
            owners[name] = owner
        }
        let specs: [(String, String?, Int, Double?, String?)] = [
            ("Home", "Home", 1, 10.5, "Ann"), ("Work", "Work", 2, nil, "Bob"), ("Unnamed", nil, 3, 2, nil), ("Empty", "Empty", 4, nil, "Ann"),
        ]
        for (label, name, rank, budget, owner) in specs {
            let project = RPProject(context: context)
            project.name = name
            project.rank = rank
            project.budget = budget
            project.owner = owner.flatMap { owners[$0] }
            projects[label] = project
        }
        for (name, weight) in [("urgent", Optional(3)), ("later", nil), ("xray", 1)] {
            let tag = RPTag(context: context)
            tag.name = name
            tag.weight = weight
            tags[name] = tag
        }
        let taskSpecs: [(String, Int?, String?, [String])] = [
            ("Buy milk", 1, "Home", ["urgent"]), ("Call mom", 2, "Home", ["urgent", "later"]), ("Fix roof", nil, "Home", []),
            ("Write report", 5, "Work", ["xray"]), ("Plan trip", 3, "Work", ["later"]), ("Weed beds", nil, "Unnamed", ["urgent", "xray"]),
            ("Loose end", 7, nil, []),
        ]
        for (title, rank, project, tagNames) in taskSpecs {
            let task = RPTask(context: context)
            task.title = title
            task.rank = rank
            task.project = project.flatMap { projects[$0] }
            task.tags = Set(tagNames.compactMap { tags[$0] })
            tasks[title] = task
        }
        tasks["Write report"]?.blocker = tasks["Buy milk"]
        tasks["Loose end"]?.blocker = tasks["Weed beds"]
        tasks["Weed beds"]?.watchers = Set([owners["Ann"], owners["Bob"]].compactMap { $0 })
        if save { try context.save() }
    }

    /// The titles a fetch in a fresh context gives (SQL only: nothing is pending there).
    func sqlTitles(_ predicate: FetchPredicate<RPTask>) throws -> [String] {
        try container.newContext().fetch(FetchRequest(predicate: predicate, sortBy: [FetchSortDescriptor(\.title)])).map(\.title)
    }

    /// The titles the in-memory evaluator accepts, over every task of a fresh context.
    func memoryTitles(_ predicate: FetchPredicate<RPTask>) throws -> [String] {
        let context = container.newContext()   // held: objects follow relationships through it
        let all = try context.fetch(FetchRequest<RPTask>(sortBy: [FetchSortDescriptor(\.title)]))
        return try withExtendedLifetime(context) { try all.filter { try predicate.evaluate(with: $0) }.map(\.title) }
    }

    /// The titles a fetch in the fixture's own context gives.
    func contextTitles(_ predicate: FetchPredicate<RPTask>) throws -> [String] {
        try context.fetch(FetchRequest(predicate: predicate, sortBy: [FetchSortDescriptor(\.title)])).map(\.title)
    }

    /// Checks SQL, memory, and the expected titles agree (`expected` in any order).
    func check(_ predicate: FetchPredicate<RPTask>, _ expected: [String], _ label: String = "",
               file: StaticString = #filePath, line: UInt = #line) {
        let sorted = expected.sorted()
        XCTAssertEqual(try sqlTitles(predicate), sorted, "SQL: \(label) \(predicate)", file: file, line: line)
        XCTAssertEqual(try memoryTitles(predicate), sorted, "memory: \(label) \(predicate)", file: file, line: line)
        XCTAssertEqual(try container.newContext().count(for: FetchRequest(predicate: predicate)), sorted.count,
                       "count: \(label)", file: file, line: line)
    }

    /// Checks a format predicate without arguments.
    func check(_ format: String, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        check(format, [], expected, file: file, line: line)
    }

    /// Checks a format predicate.
    func check(_ format: String, _ arguments: [Any], _ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        do {
            check(try FetchPredicate<RPTask>(format: format, argumentArray: arguments), expected, format, file: file, line: line)
        } catch {
            XCTFail("\(format): \(error)", file: file, line: line)
        }
    }
}
