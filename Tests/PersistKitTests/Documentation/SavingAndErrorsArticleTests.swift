import Foundation
import PersistKit
import PersistKitTestSupport
import XCTest

/// The code of the DocC article Saving and Errors, compiled and run
/// (`DocumentationCodeBlocksTests` checks that every block of the article stands here).
enum SavingAndErrorsArticle {
    final class TaskItem: ManagedObject {
        @Attribute var name: String
        @Attribute var isComplete = false

        override func validateForSave() throws {
            if name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                throw PersistError(.validation, "a task's name cannot be empty",
                                   entity: Self.entityName, attribute: "name")
            }
        }
    }

    static func unitOfWork(in container: PersistentContainer) throws -> TaskItem {
        let context = container.newContext()

        let task = TaskItem(context: context)        // inserted, with a temporary ObjectID
        task.name = "Buy milk"

        let old = try context.existingObject(TaskItem.self, primaryKey: 12)
        old.isComplete = true                        // updated
        context.delete(try context.existingObject(TaskItem.self, primaryKey: 7))

        print(context.hasChanges)                           // true
        print(context.insertedObjects)                      // [task]
        print(context.updatedObjects)                       // [old]
        print(old.changedValues())                          // ["isComplete": Optional(true)]
        print(old.committedValues(forKeys: ["isComplete"])) // ["isComplete": Optional(false)]

        try context.save()
        print(task.objectID.isTemporary)                    // false: a permanent ID, and a primary key
        return task
    }

    static func saveKeepingMyChanges(_ context: ManagedObjectContext) throws {
        do {
            try context.save()
        } catch let error as PersistError where error.code == .conflict {
            for id in error.objectIDs {
                if let object = context.object(with: id) { context.refresh(object, mergeChanges: true) }
            }
            try context.save()            // your changes, on top of what the other writer saved
        }
    }

    /// What the article's app does with each kind of error: here, it writes it down.
    final class ErrorHandler {
        var handled: [String] = []
        func show(_ problems: [String], for objects: [ObjectID], in entity: String?) { handled.append("show \(problems)") }
        func askForAnotherName() { handled.append("ask") }
        func reload(_ objects: [ObjectID]) { handled.append("reload \(objects.count)") }
        func retryLater(_ file: String?) { handled.append("retry") }
        func log(_ description: String) { handled.append("log") }

        func save(_ context: ManagedObjectContext) throws {
            do {
                try context.save()
            } catch let error as PersistError {
                switch error.reason {
                case .validation(let entity, let objects, let problems):
                    show(problems, for: objects, in: entity)
                case .constraintViolation:
                    askForAnotherName()
                case .conflict(_, let objects):
                    reload(objects)
                case .cannotOpenStore(let file) where error.sqliteCode?.primary == SQLiteResultCode.busy:
                    retryLater(file)          // another process held the write lock past busyTimeout
                default:
                    log(error.description)
                }
            }
        }
    }
}

/// The article's edit sheet over a child context, with tasks that carry tags.
enum EditSheetArticle {
    final class TaskItem: ManagedObject {
        @Attribute var name: String
        @Relationship(inverse: \Tag.tasks) var tags: Set<Tag>
    }

    final class Tag: ManagedObject {
        @Attribute(.unique) var label: String
        @Relationship var tasks: Set<TaskItem>
    }

    final class EditTaskSheet {
        let draft: ManagedObjectContext
        let task: TaskItem

        init(editing task: TaskItem, in context: ManagedObjectContext) throws {
            draft = try context.newChildContext()
            guard let copy = try draft.existingObject(with: task.objectID) as? TaskItem else {
                throw PersistError(.objectNotFound, "not a task", objectIDs: [task.objectID])
            }
            self.task = copy                  // the sheet's own instance: edits stay in the draft
        }

        func rename(_ name: String) { task.name = name }

        func addTag(_ label: String) {
            let tag = Tag(context: draft)     // a new tag, inserted in the draft only
            tag.label = label
            task.tags.insert(tag)
        }

        func save() throws {
            try draft.save()                  // into the parent; validation and uniqueness run here
        }
    }
}

final class SavingAndErrorsArticleTests: XCTestCase {
    func testTheArticleRuns() throws {
        let directory = TemporaryDirectory()
        let model = try ManagedObjectModel(entities: [SavingAndErrorsArticle.TaskItem.self])
        let container = try PersistentContainer(model: model, store: .sqlite(directory.file("tasks.sqlite")))
        let seed = container.newContext()
        for index in 1...12 { SavingAndErrorsArticle.TaskItem(context: seed).name = "task \(index)" }
        try seed.save()
        let task = try SavingAndErrorsArticle.unitOfWork(in: container)
        XCTAssertFalse(task.objectID.isTemporary)
        XCTAssertEqual(try container.newContext().count(for: FetchRequest<SavingAndErrorsArticle.TaskItem>()), 12, "one inserted, one deleted")

        let mine = container.newContext(), theirs = container.newContext()
        let stored = try mine.existingObject(SavingAndErrorsArticle.TaskItem.self, primaryKey: 1)
        let same = try theirs.existingObject(SavingAndErrorsArticle.TaskItem.self, primaryKey: 1)
        same.name = "renamed elsewhere"
        try theirs.save()
        stored.isComplete = true
        try SavingAndErrorsArticle.saveKeepingMyChanges(mine)
        let fresh = try container.newContext().existingObject(SavingAndErrorsArticle.TaskItem.self, primaryKey: 1)
        XCTAssertEqual(fresh.name, "renamed elsewhere")
        XCTAssertTrue(fresh.isComplete)

        let handler = SavingAndErrorsArticle.ErrorHandler()
        let blank = SavingAndErrorsArticle.TaskItem(context: mine)
        blank.name = "  "
        try handler.save(mine)
        XCTAssertEqual(handler.handled.count, 1)
        XCTAssertTrue(handler.handled.first?.hasPrefix("show") ?? false, "\(handler.handled)")
    }

    func testTheEditSheetCancelsAndSaves() throws {
        typealias Article = EditSheetArticle
        let directory = TemporaryDirectory()
        let model = try ManagedObjectModel(entities: [Article.TaskItem.self, Article.Tag.self])
        let container = try PersistentContainer(model: model, store: .sqlite(directory.file("sheet.sqlite")))
        let context = container.newContext()
        let task = Article.TaskItem(context: context)
        task.name = "Buy milk"
        let home = Article.Tag(context: context)
        home.label = "home"
        task.tags = [home]
        try context.save()
        var notices = 0
        let observing = context.addObserver { _ in notices += 1 }
        defer { observing.cancel() }

        do {   // Cancel: the sheet is dropped
            let sheet = try Article.EditTaskSheet(editing: task, in: context)
            sheet.rename("Buy oat milk")
            sheet.addTag("errand")
            XCTAssertEqual(sheet.task.tags.count, 2)
        }
        XCTAssertEqual(task.name, "Buy milk")
        XCTAssertEqual(task.tags.map(\.label), ["home"])
        XCTAssertFalse(context.hasChanges)
        XCTAssertEqual(notices, 0)

        let sheet = try Article.EditTaskSheet(editing: task, in: context)
        sheet.addTag("home")
        expectError(try sheet.save(), .constraintViolation, "the parent already has a tag \"home\"")
        sheet.draft.rollback()
        sheet.rename("Buy oat milk")
        sheet.addTag("errand")
        try sheet.save()
        XCTAssertEqual(notices, 1, "the parent hears the sheet's save as one change")
        XCTAssertEqual(task.name, "Buy oat milk")
        XCTAssertEqual(Set(task.tags.map(\.label)), ["home", "errand"])
        XCTAssertEqual(try container.newContext().count(for: FetchRequest<Article.Tag>()), 1, "not in the store yet")
        try context.save()
        let errand = try XCTUnwrap(sheet.task.tags.first { $0.label == "errand" })
        XCTAssertFalse(errand.objectID.isTemporary, "the draft's tag answers its permanent ID")
        let stored = try XCTUnwrap(container.newContext().fetch(FetchRequest<Article.TaskItem>()).first)
        XCTAssertEqual(stored.name, "Buy oat milk")
        XCTAssertEqual(Set(stored.tags.map(\.label)), ["home", "errand"])
    }
}
