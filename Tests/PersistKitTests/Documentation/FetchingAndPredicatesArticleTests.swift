import Foundation
import PersistKit
import PersistKitTestSupport
import XCTest

/// The code of the DocC article Fetching and Predicates, compiled and run
/// (`DocumentationCodeBlocksTests` checks that every block of the article stands here).
enum FetchingAndPredicatesArticle {
    enum Priority: Int, AttributeValue { case low, normal, high }

    final class TaskItem: ManagedObject {
        override class var entityName: String { "Task" }
        @Attribute var name: String
        @Attribute var notes: String?
        @Attribute var due: Date?
        @Attribute var isComplete = false
        @Attribute var priority: Priority = .normal
        @Attribute var estimate: Double?
        @Attribute var completedAt: Date?
        @Relationship(inverse: \Project.tasks) var project: Project?
        @Relationship(inverse: \Tag.tasks) var tags: Set<Tag>
    }

    final class Project: ManagedObject {
        @Attribute var name: String
        @Attribute var deadline: Date?
        @Relationship(inverse: \Owner.projects) var owner: Owner?
        @Relationship var tasks: Set<TaskItem>
    }

    final class Owner: ManagedObject {
        @Attribute var name: String
        @Relationship var projects: Set<Project>
    }

    final class Tag: ManagedObject {
        @Attribute var name: String
        @Relationship var tasks: Set<TaskItem>
    }

    static func fetchRequests(in context: ManagedObjectContext, deadline: Date) throws -> (tasks: [TaskItem], total: Int, ids: [ObjectID]) {
        var request = FetchRequest<TaskItem>(
            predicate: \.isComplete == false && \.due < deadline,
            sortBy: [FetchSortDescriptor(\.due, nils: .last), FetchSortDescriptor(\.name)])
        request.fetchLimit = 50          // 0, the default, is no limit
        request.fetchOffset = 100        // skip this many first

        let tasks = try context.fetch(request)               // [TaskItem]
        let total = try context.count(for: request)           // limit and offset applied
        let ids = try context.fetchObjectIDs(request)         // [ObjectID], Sendable
        return (tasks, total, ids)
    }

    static func typedPredicates() -> [FetchPredicate<TaskItem>] {
        let open: FetchPredicate<TaskItem> = \.isComplete == false
        let urgent: FetchPredicate<TaskItem> = \.priority >= .high && \.due != nil
        let either: FetchPredicate<TaskItem> = open || !urgent
        return [open, urgent, either]
    }

    static func stringHelpers() -> [FetchPredicate<TaskItem>] {
        let milk = FetchPredicate<TaskItem>.contains(\.name, "milk", options: [.caseInsensitive, .diacriticInsensitive])
        let buy: FetchPredicate<TaskItem> = .beginsWith(\.name, "Buy") || .endsWith(\.name, "!")
        let pattern = FetchPredicate<TaskItem>.like(\.name, "call ?om*", options: .caseInsensitive)
        let named = FetchPredicate<TaskItem>.equals(\.name, "ÉCLAIR", options: [.caseInsensitive, .diacriticInsensitive])
        let some = FetchPredicate<TaskItem>.in(\.priority, [.normal, .high])
        return [milk, buy, pattern, named, some]
    }

    static func formatStrings(start: Date, end: Date) throws -> [FetchPredicate<TaskItem>] {
        let same = try FetchPredicate<TaskItem>(format: "isComplete == NO AND name CONTAINS[cd] %@", "milk")
        let window = try FetchPredicate<TaskItem>(format: "due BETWEEN {%@, %@}", start, end)
        let keyed = try FetchPredicate<TaskItem>(format: "%K IN %@", "priority", [Priority.normal, .high])
        return [same, window, keyed]
    }

    static func throughRelationships() throws -> [FetchPredicate<TaskItem>] {
        let inHome = try FetchPredicate<TaskItem>(format: "project.name == %@", "Home")
        let ownedByAn = try FetchPredicate<TaskItem>(format: "project.owner.name BEGINSWITH[cd] %@", "an")
        let home: FetchPredicate<TaskItem> = \.project?.name == "Home"
        return [inHome, ownedByAn, home]
    }

    static func comparingKeys(today: Date) throws -> [FetchPredicate<TaskItem>] {
        let late = try FetchPredicate<TaskItem>(format: "completedAt > due")
        let pastDeadline = try FetchPredicate<TaskItem>(format: "due > project.deadline")
        let dueWithinADay = try FetchPredicate<TaskItem>(format: "due < %@ + 86400", today)
        let long = try FetchPredicate<TaskItem>(format: "(estimate - 1) * 2 >= 4")
        let finishedLate = #Predicate<TaskItem> { $0.completedAt != nil && $0.due != nil && $0.completedAt! > $0.due! }
        return [late, pastDeadline, dueWithinADay, long, FetchPredicate(finishedLate)]
    }

    static func aggregates() -> (FetchRequest<TaskItem>, FetchRequest<TaskItem>, FetchRequest<Project>, FetchPredicate<Project>) {
        let tagged = FetchRequest<TaskItem>(predicate: .count(\.tags) > 2)
        let urgent = FetchRequest<TaskItem>(predicate: .count(\.tags, where: .beginsWith(\.name, "x")) > 0)
        let heavy = FetchRequest<Project>(predicate: .sum(\.tasks, \.estimate) > 10)
        let busy: FetchPredicate<Project> = \.tasks.count > 2 && .average(\.tasks, \.estimate) >= 1.5
        return (tagged, urgent, heavy, busy)
    }

    static func sorts() -> [FetchSortDescriptor<TaskItem>] {
        let byCompletion = FetchSortDescriptor(\TaskItem.isComplete)
        let latestFirst = FetchSortDescriptor(\TaskItem.due, order: .reverse, nils: .last)
        let byName = FetchSortDescriptor(\TaskItem.name, comparison: .localizedStandard)
        let byProject = FetchRequest<TaskItem>(sortBy: [FetchSortDescriptor(key: "project.name"), byName])
        return [byCompletion, latestFirst] + byProject.sortDescriptors
    }

    static func foundationRequest() -> FetchRequest<TaskItem> {
        let request = FetchRequest(predicate: #Predicate<TaskItem> { $0.isComplete == false },
                                   sortBy: [SortDescriptor(\.due)])
        return request
    }
}

final class FetchingAndPredicatesArticleTests: XCTestCase {
    private typealias Article = FetchingAndPredicatesArticle

    func testTheArticleRuns() throws {
        let model = try ManagedObjectModel(entities: [Article.TaskItem.self, Article.Project.self, Article.Owner.self, Article.Tag.self])
        let context = try PersistentContainer(model: model, store: .inMemory).newContext()
        let ann = Article.Owner(context: context)
        ann.name = "Ann"
        let home = Article.Project(context: context)
        home.name = "Home"
        home.owner = ann
        let now = Date()
        home.deadline = now.addingTimeInterval(3)
        let tags = ["a", "b", "xc"].map { name -> Article.Tag in
            let tag = Article.Tag(context: context)
            tag.name = name
            return tag
        }
        for index in 0..<120 {
            let task = Article.TaskItem(context: context)
            task.name = index == 0 ? "Buy milk" : "task \(index)"
            task.due = now.addingTimeInterval(Double(index))
            task.estimate = 2
            task.project = index < 6 ? home : nil
            task.completedAt = index < 10 ? task.due?.addingTimeInterval(index % 2 == 0 ? 10 : -10) : nil
            if index == 0 { task.tags = Set(tags) }
        }
        try context.save()

        let (tasks, total, ids) = try Article.fetchRequests(in: context, deadline: now.addingTimeInterval(1_000))
        XCTAssertEqual(tasks.count, 20, "120 tasks, 100 skipped")
        XCTAssertEqual(total, 20)
        XCTAssertEqual(ids, tasks.map(\.objectID))
        for predicate in Article.typedPredicates() + Article.stringHelpers() + (try Article.throughRelationships())
            + (try Article.formatStrings(start: now, end: now.addingTimeInterval(10))) {
            XCTAssertNoThrow(try context.fetch(FetchRequest(predicate: predicate)))
        }
        XCTAssertEqual(try context.count(for: FetchRequest(predicate: try Article.throughRelationships()[1])), 6)
        // Finished late: even tasks under 10; past the project's deadline: tasks 4 and 5; all due within a day; none long.
        let counts = try Article.comparingKeys(today: now).map { try context.count(for: FetchRequest(predicate: $0)) }
        XCTAssertEqual(counts, [5, 2, 120, 0, 5])
        let (tagged, urgent, heavy, busy) = Article.aggregates()
        XCTAssertEqual(try context.fetch(tagged).map(\.name), ["Buy milk"])
        XCTAssertEqual(try context.fetch(urgent).map(\.name), ["Buy milk"])
        XCTAssertEqual(try context.fetch(heavy).map(\.name), ["Home"], "six tasks of 2")
        XCTAssertEqual(try context.fetch(FetchRequest(predicate: busy)).map(\.name), ["Home"])
        XCTAssertEqual(try context.fetch(FetchRequest(sortBy: Article.sorts())).count, 120)
        XCTAssertEqual(try context.count(for: Article.foundationRequest()), 120)
    }
}
