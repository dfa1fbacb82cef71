import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A version-1 model of projects, tasks and tags as model documents, a store of it with a few
/// objects, and the version-2 variations the inferred-migration tests open it with.
enum MigrationBase {
    static func project(_ attributes: [[String: Any]] = [attribute("name", "string")],
                        relationships: [[String: Any]] = [relationship("tasks", to: "Task", toMany: true, inverse: "project")],
                        unique: [[String]] = [["name"]], name: String = "Project", originalName: String? = nil) -> [String: Any] {
        entity(name, attributes, relationships: relationships, unique: unique, originalName: originalName)
    }

    static var taskAttributes: [[String: Any]] { [
        attribute("title", "string"), attribute("notes", "string", optional: true),
        attribute("done", "boolean", default: ["integer": 0]), attribute("rank", "integer16", optional: true),
    ] }

    static var taskRelationships: [[String: Any]] { [
        relationship("project", to: "Project", inverse: "tasks"),
        relationship("tags", to: "Tag", toMany: true, inverse: "tasks"),
    ] }

    static func task(_ attributes: [[String: Any]] = taskAttributes, relationships: [[String: Any]] = taskRelationships,
                     unique: [[String]] = []) -> [String: Any] {
        entity("Task", attributes, relationships: relationships, unique: unique)
    }

    static func tag(relationships: [[String: Any]] = [relationship("tasks", to: "Task", toMany: true, inverse: "tags")],
                    name: String = "Tag", originalName: String? = nil) -> [String: Any] {
        entity(name, [attribute("label", "string")], relationships: relationships, originalName: originalName)
    }

    static func version1() throws -> ManagedObjectModel {
        try documentModel(1, [project(), task(), tag()])
    }

    /// Version 1's objects: projects Home (1) and Work (2); tasks 1-4 (task 4 has no project,
    /// no notes and no rank); tags red (1), green (2), blue (3); task 1 tagged red and green,
    /// task 2 green.
    static func fill(_ context: ManagedObjectContext) throws {
        let home = try insert("Project", ["name": "Home"], into: context)
        let work = try insert("Project", ["name": "Work"], into: context)
        let tasks = [
            try insert("Task", ["title": "Buy milk", "notes": "2 litres", "done": false, "rank": 3], into: context),
            try insert("Task", ["title": "Call Ada", "notes": "about 'tea'", "done": true, "rank": -2], into: context),
            try insert("Task", ["title": "File taxes", "notes": nil, "done": false, "rank": 7], into: context),
            try insert("Task", ["title": "Walk", "done": true], into: context),
        ]
        try tasks[0].setRelatedObjects([home], forKey: "project")
        try tasks[1].setRelatedObjects([work], forKey: "project")
        try tasks[2].setRelatedObjects([home], forKey: "project")
        let tags = try ["red", "green", "blue"].map { try insert("Tag", ["label": $0], into: context) }
        try tasks[0].setRelatedObjects([tags[0], tags[1]], forKey: "tags")
        try tasks[1].setRelatedObjects([tags[1]], forKey: "tags")
    }

    /// The version-1 store, written at `url`.
    static func writeVersion1(at url: URL) throws {
        try writeStore(at: url, model: version1(), fill: fill)
    }

    /// Writes the version-1 store and opens it with a version-2 model of `entities`; checks
    /// that the migrated store has a new store's schema.
    static func migrate(to entities: [[String: Any]], in directory: TemporaryDirectory, stages: [MigrationStage] = [],
                        file: StaticString = #filePath, line: UInt = #line) throws -> PersistentContainer {
        let url = directory.file("store.sqlite")
        try writeVersion1(at: url)
        let container = try openMigrating(url, to: documentModel(2, entities), from: [version1()], stages: stages)
        XCTAssertEqual(container.migrationReport?.fromVersion, 1, file: file, line: line)
        XCTAssertEqual(try storedModelMetadata(container)["modelVersion"], "2", file: file, line: line)
        try assertSchemaMatchesFreshStore(container, file: file, line: line)
        return container
    }

    /// The links of a join table as "owner-destination" pairs, sorted.
    static func links(_ container: PersistentContainer, _ table: String) throws -> [String] {
        try rows(container, "SELECT owner, destination FROM \"\(table)\"").map { "\($0[0])-\($0[1])" }.sorted()
    }
}
