import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

// Model documents written in tests, stores written by one version and opened by another, and
// the schema a store ends with: what the migration tests share.

/// A model document's entity, as JSON: `entity("Task", [attribute("name", "string")])`.
func entity(_ name: String, _ attributes: [[String: Any]], relationships: [[String: Any]] = [],
            unique: [[String]] = [], originalName: String? = nil) -> [String: Any] {
    var result: [String: Any] = ["name": name, "attributes": attributes, "relationships": relationships,
                                 "uniquenessConstraints": unique]
    if let originalName { result["originalName"] = originalName }
    return result
}

/// An attribute: `attribute("due", "date", optional: true)`, `attribute("rank", "integer", default: ["integer": 3])`.
func attribute(_ name: String, _ type: String, optional: Bool = false, default value: [String: Any]? = nil,
               originalName: String? = nil) -> [String: Any] {
    var result: [String: Any] = ["name": name, "type": type, "optional": optional]
    if let value { result["defaultValue"] = value }
    if let originalName { result["originalName"] = originalName }
    return result
}

/// A relationship: to-one unless `toMany`; `inverse: nil` for a one-way one.
func relationship(_ name: String, to destination: String, toMany: Bool = false, ordered: Bool = false, inverse: String?,
                  deleteRule: String = "nullify", originalName: String? = nil) -> [String: Any] {
    var result: [String: Any] = ["name": name, "destination": destination, "toMany": toMany, "deleteRule": deleteRule]
    if ordered { result["ordered"] = true }
    if let inverse { result["inverse"] = inverse }
    if let originalName { result["originalName"] = originalName }
    return result
}

/// A model from entity JSON, of `version`.
func documentModel(_ version: Int, _ entities: [[String: Any]]) throws -> ManagedObjectModel {
    let json = try JSONSerialization.data(withJSONObject: ["formatVersion": 1, "entities": entities])
    return try ManagedObjectModel(document: json, version: version)
}

/// Inserts an object of a document model's entity with the given attribute values.
@discardableResult
func insert(_ entityName: String, _ values: [String: Any?], into context: ManagedObjectContext) throws -> ManagedObject {
    let description = try XCTUnwrap(context.model.entity(named: entityName), "no entity \(entityName)")
    let object = ManagedObject(entity: description, insertInto: context)
    for (key, value) in values { try object.setValue(value, forKey: key) }
    return object
}

/// Writes a store of `model` at `url` with what `fill` inserts, and closes it.
func writeStore(at url: URL, model: ManagedObjectModel, fill: (ManagedObjectContext) throws -> Void) throws {
    let container = try PersistentContainer(model: model, store: .sqlite(url))
    let context = container.newContext()
    try fill(context)
    try context.save()
}

/// Opens the store at `url` with `model`, migrating it with a plan of `older` models and `stages`.
func openMigrating(_ url: URL, to model: ManagedObjectModel, from older: [ManagedObjectModel], stages: [MigrationStage] = [],
                   progress: (@Sendable (MigrationProgress) -> Void)? = nil) throws -> PersistentContainer {
    try PersistentContainer(model: model, store: .sqlite(url),
                            options: .init(migrationPlan: MigrationPlan(models: older, stages: stages), migrationProgress: progress))
}

/// Every row of a query, each column as an `SQLValue`.
func rows(_ container: PersistentContainer, _ sql: String) throws -> [[SQLValue]] {
    try container.store.withConnection { connection in
        let statement = try connection.prepare(sql)
        var result: [[SQLValue]] = []
        while try statement.step() {
            result.append((0..<statement.columnCount).map { statement.value(at: $0) })
        }
        return result
    }
}

/// The model version, hash and document a store's metadata records.
func storedModelMetadata(_ container: PersistentContainer) throws -> [String: String] {
    var result: [String: String] = [:]
    for row in try rows(container, "SELECT key, value FROM _persistkit_metadata WHERE key IN ('modelVersion', 'versionHash')") {
        if case .text(let key) = row[0], case .text(let value) = row[1] { result[key] = value }
    }
    return result
}

/// What a store's schema is, as the model sees it: each table's columns (name, type, NOT NULL,
/// referenced table; sorted, since `ADD COLUMN` appends) and indexes (name, unique, columns).
/// A migrated store must have the very schema a new store of its model has.
func schemaSignature(_ container: PersistentContainer) throws -> [String] {
    var lines: [String] = []
    let tables = try rows(container, "SELECT name FROM sqlite_master WHERE type = 'table' AND name <> '_persistkit_metadata' ORDER BY name")
    for case .text(let table) in tables.map({ $0[0] }) {
        let references = try rows(container, "SELECT \"from\", \"table\", on_delete FROM pragma_foreign_key_list('\(table)')")
        var referenced: [String: String] = [:]
        for row in references {
            if case .text(let from) = row[0], case .text(let to) = row[1], case .text(let action) = row[2] {
                referenced[from] = "\(to) \(action)"
            }
        }
        for row in try rows(container, "SELECT name, type, \"notnull\", pk FROM pragma_table_info('\(table)')") {
            guard case .text(let column) = row[0] else { continue }
            lines.append("\(table).\(column) \(row[1]) notnull=\(row[2]) pk=\(row[3]) \(referenced[column] ?? "")")
        }
        for row in try rows(container, "SELECT l.name, l.\"unique\", l.partial, m.sql FROM pragma_index_list('\(table)') AS l "
                                       + "JOIN sqlite_master AS m ON m.name = l.name WHERE l.origin = 'c'") {
            guard case .text(let index) = row[0] else { continue }
            let columns = try rows(container, "SELECT name FROM pragma_index_info('\(index)') ORDER BY seqno").map { "\($0[0])" }
            // A partial index's rows: the condition after its columns.
            var condition = ""
            if row[2] == .integer(1), case .text(let sql) = row[3], let start = sql.range(of: ") WHERE ", options: .backwards) {
                condition = " where " + sql[start.upperBound...]
            }
            lines.append("index \(index) on \(table) unique=\(row[1]) (\(columns.joined(separator: ", ")))" + condition)
        }
    }
    return lines.sorted()
}

/// The schema of a new store of `model` (in a scratch file).
func freshSchemaSignature(_ model: ManagedObjectModel) throws -> [String] {
    let directory = TemporaryDirectory()
    let container = try PersistentContainer(model: model, store: .sqlite(directory.file("fresh.sqlite")))
    return try schemaSignature(container)
}

/// Asserts that a migrated store has the schema a new store of its model has.
func assertSchemaMatchesFreshStore(_ container: PersistentContainer, file: StaticString = #filePath, line: UInt = #line) throws {
    XCTAssertEqual(try schemaSignature(container), try freshSchemaSignature(container.model),
                   "the migrated store has the schema of a new store of the model", file: file, line: line)
}
