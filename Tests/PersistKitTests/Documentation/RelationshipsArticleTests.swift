import Foundation
import PersistKit
import PersistKitTestSupport
import XCTest

/// The code of the DocC article Relationships, compiled and run (`DocumentationCodeBlocksTests`
/// checks that every block of the article stands here).
enum RelationshipsArticle {
    final class Project: ManagedObject {
        @Attribute(.unique) var name: String
        @Relationship(deleteRule: .cascade) var tasks: Set<TaskItem>    // inverse: TaskItem.project
        @Relationship var milestones: [Milestone]                      // ordered; inverse: Milestone.project
    }

    final class TaskItem: ManagedObject {
        override class var entityName: String { "Task" }
        @Attribute var name: String
        @Relationship(inverse: \Project.tasks) var project: Project?   // to-one
        @Relationship(inverse: \Tag.tasks) var tags: Set<Tag>          // many-to-many
    }

    final class Tag: ManagedObject {
        @Attribute(.unique) var name: String
        @Relationship var tasks: Set<TaskItem>
    }

    final class Milestone: ManagedObject {
        @Attribute var title: String
        @Relationship(inverse: \Project.milestones) var project: Project?
    }

    static func makeModel() throws -> ManagedObjectModel {
        let model = try ManagedObjectModel(entities: [Project.self, TaskItem.self, Tag.self, Milestone.self])
        return model
    }

    static func inversesAreKeptAtOnce(in context: ManagedObjectContext, urgent: Tag, errands: Tag) -> (Project, TaskItem) {
        let home = Project(context: context)
        home.name = "Home"
        let task = TaskItem(context: context)
        task.name = "Buy milk"
        task.project = home              // home.tasks now contains task
        home.tasks.remove(task)          // task.project is nil again
        task.tags = [urgent, errands]    // urgent.tasks and errands.tasks contain task
        return (home, task)
    }

    static func useWhatAFunctionFetched(_ container: PersistentContainer) throws -> Int? {
        func inbox(_ container: PersistentContainer) throws -> Project? {
            let context = container.newContext()
            return try context.fetch(FetchRequest<Project>(predicate: \.name == "Inbox")).first
        }                                             // the context is freed here

        let project = try inbox(container)
        let count = project?.tasks.count              // its tasks, loaded now
        project?.name = "Today"
        try project?.managedObjectContext?.save()     // saved by the context it now lives in
        return count
    }

    static func readAfterTheContextIsGone(container: PersistentContainer) throws
        -> (name: String, project: Project?, found: Project?) {
        let context = container.newContext()
        let task = TaskItem(context: context)
        task.name = "Write the report"
        task.project = Project(context: context)
        task.project?.name = "Work"
        try context.save()
        context.reset()                               // the context lets go of every object
        let name = task.name                          // "Write the report": its own value
        let project = task.project                    // nil: no context to read it through
        do {
            _ = try task.relatedObjects(forKey: "project")
            XCTFail("a relationship of an object in no context cannot be read")
        } catch let error as PersistError where error.code == .misuse {
            print(error.message)                      // "Task.project of … is in no context …"
            XCTAssertTrue(error.message.contains("Task.project of \(task.objectID)"), error.message)
            XCTAssertEqual(error.objectIDs, [task.objectID])
        }
        let live = container.newContext()
        let again = try live.existingObject(with: task.objectID) as? TaskItem
        let found = again?.project                    // the project, read through a live context
        return (name, project, found)
    }

    static func relate(_ imported: [TaskItem], to inbox: Project) {
        for task in imported { inbox.$tasks.insert(task) }   // one link each, whatever inbox holds
        XCTAssertEqual(inbox.tasks, Set(imported))
        for task in imported { task.project = inbox }        // the same, from the to-one side
        inbox.$tasks.remove(imported[0])                     // one unlink
        XCTAssertNil(imported[0].project)
        inbox.tasks = Set(imported)                          // or all at once
    }
}

final class RelationshipsArticleTests: XCTestCase {
    func testTheArticleRuns() throws {
        let model = try RelationshipsArticle.makeModel()
        let context = try PersistentContainer(model: model, store: .inMemory).newContext()
        let urgent = RelationshipsArticle.Tag(context: context), errands = RelationshipsArticle.Tag(context: context)
        urgent.name = "urgent"
        errands.name = "errands"
        let (home, task) = RelationshipsArticle.inversesAreKeptAtOnce(in: context, urgent: urgent, errands: errands)
        XCTAssertNil(task.project)
        XCTAssertEqual(home.tasks, [])
        XCTAssertEqual(urgent.tasks, [task])
        XCTAssertEqual(errands.tasks, [task])
        let imported = (0..<3).map { index -> RelationshipsArticle.TaskItem in
            let task = RelationshipsArticle.TaskItem(context: context)
            task.name = "imported \(index)"
            return task
        }
        RelationshipsArticle.relate(imported, to: home)
        XCTAssertEqual(home.tasks, Set(imported))
        XCTAssertTrue(imported.allSatisfy { $0.project === home })
        try context.save()
    }

    func testAnObjectThatOutlivesItsContextKeepsWorking() throws {
        let container = try PersistentContainer(model: try RelationshipsArticle.makeModel(), store: .inMemory)
        let writer = container.newContext()
        let inbox = RelationshipsArticle.Project(context: writer)
        inbox.name = "Inbox"
        for name in ["a", "b"] {
            let task = RelationshipsArticle.TaskItem(context: writer)
            task.name = name
            task.project = inbox
        }
        try writer.save()
        XCTAssertEqual(try RelationshipsArticle.useWhatAFunctionFetched(container), 2)
        let names = try container.newContext().fetch(FetchRequest<RelationshipsArticle.Project>()).map(\.name)
        XCTAssertEqual(names, ["Today"])
    }

    func testAnObjectWhoseContextIsGoneSaysSo() throws {
        let container = try PersistentContainer(model: try RelationshipsArticle.makeModel(), store: .inMemory)
        let (name, project, found) = try RelationshipsArticle.readAfterTheContextIsGone(container: container)
        XCTAssertEqual(name, "Write the report")
        XCTAssertNil(project)
        XCTAssertEqual(found?.name, "Work")
    }
}
