import Foundation
@testable import PersistKit

// Three released versions of one model, declared as classes, the way an application keeps the
// classes of its old versions for migration code (the committed documents are in
// Tests/Schema/Planner/).
//
// Version 1: Task (title, notes, done, due).
// Version 2: Task.title is now name; Task gets priority (default 1) and a project; Project
//            (unique name) with its tasks; Tag, many-to-many with tasks.
// Version 3: Project is now Folder (Task.project is now folder); Task.done is now isComplete;
//            Task.notes is gone; Task gets estimate; Folder gets isArchived.

enum PlannerV1 {
    final class Task: ManagedObject {
        override class var entityName: String { "Task" }
        @Attribute var title: String
        @Attribute var notes: String?
        @Attribute var done = false
        @Attribute var due: Date?
    }

    static func model() throws -> ManagedObjectModel { try ManagedObjectModel(entities: [Task.self], version: 1) }
}

enum PlannerV2 {
    final class Task: ManagedObject {
        override class var entityName: String { "Task" }
        @Attribute(originalName: "title") var name: String
        @Attribute var notes: String?
        @Attribute var done = false
        @Attribute var due: Date?
        @Attribute var priority = 1
        @Relationship(inverse: \Project.tasks) var project: Project?
        @Relationship(inverse: \Tag.tasks) var tags: Set<Tag>
    }

    final class Project: ManagedObject {
        override class var entityName: String { "Project" }
        @Attribute(.unique) var name: String
        @Relationship(deleteRule: .nullify) var tasks: Set<Task>
    }

    final class Tag: ManagedObject {
        override class var entityName: String { "Tag" }
        @Attribute var label: String
        @Relationship var tasks: Set<Task>
    }

    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [Task.self, Project.self, Tag.self], version: 2)
    }
}

enum PlannerV3 {
    final class Task: ManagedObject {
        override class var entityName: String { "Task" }
        @Attribute var name: String
        @Attribute(originalName: "done") var isComplete = false
        @Attribute var due: Date?
        @Attribute var priority = 1
        @Attribute var estimate: Double?
        @Relationship(inverse: \Folder.tasks, originalName: "project") var folder: Folder?
        @Relationship(inverse: \Tag.tasks) var tags: Set<Tag>
    }

    final class Folder: ManagedObject {
        override class var entityName: String { "Folder" }
        override class var originalEntityName: String? { "Project" }
        @Attribute(.unique) var name: String
        @Attribute var isArchived = false
        @Relationship(deleteRule: .nullify) var tasks: Set<Task>
    }

    final class Tag: ManagedObject {
        override class var entityName: String { "Tag" }
        @Attribute var label: String
        @Relationship var tasks: Set<Task>
    }

    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [Task.self, Folder.self, Tag.self], version: 3)
    }
}

/// The committed documents of the planner model's released versions.
var plannerSchemaDirectory: URL {
    // Tests/PersistKitTests/Support/ -> Tests/, outside every target (no resources to declare).
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Schema/Planner")
}
