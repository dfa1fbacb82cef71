import Foundation
import PersistKit
import PersistKitTestSupport
import XCTest

/// The code of the DocC article Undo and Redo, compiled and run
/// (`DocumentationCodeBlocksTests` checks that every block of the article stands here).
enum UndoAndRedoArticle {
    final class Project: ManagedObject {
        @Attribute var name: String
        @Relationship(deleteRule: .cascade) var tasks: Set<TaskItem>
    }

    final class TaskItem: ManagedObject {
        @Attribute var name: String
        @Attribute var isComplete = false
        @Relationship(inverse: \Project.tasks) var project: Project?
    }
}

final class UndoAndRedoArticleTests: XCTestCase {
    private typealias Project = UndoAndRedoArticle.Project
    private typealias TaskItem = UndoAndRedoArticle.TaskItem

    private func makeContext(_ directory: TemporaryDirectory) throws -> (PersistentContainer, ManagedObjectContext) {
        let model = try ManagedObjectModel(entities: [Project.self, TaskItem.self])
        let container = try PersistentContainer(model: model, store: .sqlite(directory.file("undo.sqlite")))
        return (container, container.newContext())
    }

    func testTurningItOn() throws {
        let directory = TemporaryDirectory()
        let (_, context) = try makeContext(directory)
        let task = TaskItem(context: context)
        task.name = "Buy milk"
        try context.save()

        let undo = ContextUndoManager()
        context.undoManager = undo

        task.name = "Buy oat milk"
        context.processPendingChanges()      // closes the group: one step to undo
        undo.undo()                          // task.name is "Buy milk" again
        XCTAssertEqual(task.name, "Buy milk")
        undo.redo()                          // "Buy oat milk"
        XCTAssertEqual(task.name, "Buy oat milk")
    }

    func testGroupingAndNaming() throws {
        let directory = TemporaryDirectory()
        let (_, context) = try makeContext(directory)
        let undo = ContextUndoManager()
        context.undoManager = undo
        let home = Project(context: context), errands = Project(context: context)
        home.name = "Home"
        errands.name = "Errands"
        let task = TaskItem(context: context)
        task.name = "Buy milk"
        task.project = home
        task.isComplete = true
        context.processPendingChanges()

        undo.setActionName("Move to Errands")
        undo.beginUndoGrouping()
        task.project = errands
        task.isComplete = false
        undo.endUndoGrouping()
        print(undo.undoActionName)           // "Move to Errands"
        XCTAssertEqual(undo.undoActionName, "Move to Errands")
        undo.undo()                          // both changes undone at once
        XCTAssertTrue(task.project === home)
        XCTAssertTrue(task.isComplete)
        XCTAssertEqual(home.tasks, [task])
    }

    func testADeletionAfterASave() throws {
        let directory = TemporaryDirectory()
        let (container, context) = try makeContext(directory)
        let project = Project(context: context)
        project.name = "Home"
        for name in ["a", "b"] {
            let task = TaskItem(context: context)
            task.name = name
            task.project = project
        }
        try context.save()
        let undo = ContextUndoManager()
        context.undoManager = undo

        context.delete(project)              // cascades to its tasks
        try context.save()
        XCTAssertEqual(try container.newContext().count(for: FetchRequest<TaskItem>()), 0)
        undo.undo()                          // the project and its tasks come back, as new inserts
        try context.save()                   // written again

        let stored = try XCTUnwrap(container.newContext().fetch(FetchRequest<Project>()).first)
        XCTAssertEqual(stored.tasks.map(\.name).sorted(), ["a", "b"])
    }
}
