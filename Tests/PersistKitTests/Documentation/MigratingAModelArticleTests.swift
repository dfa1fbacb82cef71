import Foundation
import PersistKit
import PersistKitTestSupport
import XCTest

/// The code of the DocC article Migrating a Model, compiled and run (`DocumentationCodeBlocksTests`
/// checks that every block of the article stands here; TaskModel's own example is in
/// TaskModelTests).
enum MigratingAModelArticle {
    /// The model version 1 shipped, to write version 1 stores and documents.
    enum Version1 {
        final class TaskItem: ManagedObject {
            override class var entityName: String { "Task" }
            @Attribute var name: String
            @Attribute var isComplete = false
        }
    }

    // Version 1 had Task only. Version 2 adds projects.
    final class TaskItem: ManagedObject {
        override class var entityName: String { "Task" }
        @Attribute var name: String
        @Attribute var isComplete = false
        @Attribute var priority = 1                                      // new in version 2
        @Relationship(inverse: \Project.tasks) var project: Project?       // new in version 2
    }

    final class Project: ManagedObject {                                 // new in version 2
        @Attribute(.unique) var name: String
        @Relationship var tasks: Set<TaskItem>
    }

    static func makeModel() throws -> ManagedObjectModel {
        let model = try ManagedObjectModel(entities: [TaskItem.self, Project.self], version: 2)
        return model
    }

    /// The article's application: its model and its custom stages.
    enum MyStore {
        static func makeModel() throws -> ManagedObjectModel { try MigratingAModelArticle.makeModel() }
        static let migrationStages: [MigrationStage] = []
    }

    /// The article's schema test, compiled (not run: it reads the schema directory of the reader's package).
    final class SchemaTests {
        func testModelMatchesItsHistory() throws {
            let schema = URL(fileURLWithPath: #filePath)   // Tests/MyModelTests/SchemaTests.swift
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Schema/MyModel")
            let model = try MyStore.makeModel()
            let newest = try Data(contentsOf: schema.appendingPathComponent("\(model.version).json"))
            XCTAssertEqual(try ManagedObjectModel(document: newest).document, model.document,
                           "a changed model needs a new version and its document")
            try MigrationPlan(documentsIn: schema, stages: MyStore.migrationStages).check(upTo: model)
        }
    }

    static func open(_ url: URL, model: ManagedObjectModel, schemaDirectory: URL) throws -> PersistentContainer {
        let plan = try MigrationPlan(documentsIn: schemaDirectory)          // 1.json, 2.json...
        let container = try PersistentContainer(model: model, store: .sqlite(url),
                                                options: .init(migrationPlan: plan))
        if let report = container.migrationReport {
            print("Upgraded to version \(report.toVersion) (\(report.objectCounts["Task", default: 0]) tasks)")
        }
        return container
    }

    /// Version 2 with renames, compiled.
    enum Renamed {
        final class TaskItem: ManagedObject {
            override class var entityName: String { "Task" }
            @Attribute(originalName: "title") var name: String
            @Attribute(originalName: "done") var isComplete = false
            @Relationship(inverse: \Folder.tasks, originalName: "project") var folder: Folder?
        }

        final class Folder: ManagedObject {
            override class var originalEntityName: String? { "Project" }
            @Relationship var tasks: Set<TaskItem>
        }
    }

    static func planWithStages(schemaDirectory: URL) throws -> MigrationPlan {
        let stages: [MigrationStage] = [
            .custom(from: 1, to: 2, willMigrate: { context in
                // Version 1's model: remove duplicate names before they must be unique.
                var seen = Set<String>()
                for task in try context.fetch(FetchRequest<ManagedObject>(entityName: "Task")) {
                    let name = try task.value(forKey: "name") as? String ?? ""
                    if !seen.insert(name).inserted { context.delete(task) }
                }
            }, didMigrate: { context in
                // Version 2's model: put every task in a project.
                let inbox = Project(context: context)
                inbox.name = "Inbox"
                for task in try context.fetch(FetchRequest<TaskItem>()) { task.project = inbox }
            }),
        ]
        let plan = try MigrationPlan(documentsIn: schemaDirectory, stages: stages)
        return plan
    }

    static func options(_ plan: MigrationPlan) -> PersistentContainer.Options {
        let options = PersistentContainer.Options(migrationPlan: plan, migrationProgress: { progress in
            print("version \(progress.fromVersion) → \(progress.toVersion): \(progress.step), "
                  + "\(progress.rowsDone) of \(progress.totalRows) rows")
        })
        return options
    }
}

final class MigratingAModelArticleTests: XCTestCase {
    private typealias Article = MigratingAModelArticle

    /// A version 1 store with tasks "a", "a" and "b", and the schema directory of both versions.
    private func version1Store(in directory: TemporaryDirectory, name: String) throws -> (url: URL, schema: URL) {
        let schema = directory.url.appendingPathComponent("Schema")
        try FileManager.default.createDirectory(at: schema, withIntermediateDirectories: true)
        let version1 = try ManagedObjectModel(entities: [Article.Version1.TaskItem.self])
        try version1.document.write(to: schema.appendingPathComponent("1.json"))
        try Article.makeModel().document.write(to: schema.appendingPathComponent("2.json"))
        let url = directory.file(name)
        let context = try PersistentContainer(model: version1, store: .sqlite(url)).newContext()
        for taskName in ["a", "a", "b"] { Article.Version1.TaskItem(context: context).name = taskName }
        try context.save()
        return (url, schema)
    }

    func testTheArticleRuns() throws {
        let directory = TemporaryDirectory()
        let (url, schema) = try version1Store(in: directory, name: "inferred.sqlite")
        let container = try Article.open(url, model: try Article.makeModel(), schemaDirectory: schema)
        XCTAssertEqual(container.migrationReport?.toVersion, 2)
        XCTAssertEqual(try container.newContext().fetch(FetchRequest<Article.TaskItem>()).map(\.priority), [1, 1, 1])

        let (staged, _) = try version1Store(in: directory, name: "staged.sqlite")
        let plan = try Article.planWithStages(schemaDirectory: schema)
        let migrated = try PersistentContainer(model: try Article.makeModel(), store: .sqlite(staged), options: Article.options(plan))
        let reader = migrated.newContext()
        let tasks = try reader.fetch(FetchRequest<Article.TaskItem>(sortBy: [FetchSortDescriptor(\.name)]))
        XCTAssertEqual(tasks.map(\.name), ["a", "b"])
        XCTAssertEqual(tasks.map { $0.project?.name }, ["Inbox", "Inbox"])

        XCTAssertNoThrow(try ManagedObjectModel(entities: [Article.Renamed.TaskItem.self, Article.Renamed.Folder.self], version: 2))
    }
}
