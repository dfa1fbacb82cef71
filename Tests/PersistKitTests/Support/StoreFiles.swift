import Foundation
import XCTest
@testable import PersistKit

// Helpers for tests about store files: what a directory holds, expected errors, raw SQL.

/// Every file in a directory, by name, with its bytes (nil for a subdirectory).
func directorySnapshot(_ directory: URL) throws -> [String: Data?] {
    var result: [String: Data?] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
        let url = directory.appendingPathComponent(name)
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        result[name] = isDirectory.boolValue ? nil : try Data(contentsOf: url)
    }
    return result
}

func assertSameFiles(_ before: [String: Data?], _ after: [String: Data?], ignoringContentsOf ignored: Set<String> = [],
                     file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(before.keys.sorted(), after.keys.sorted(), "the same files exist before and after", file: file, line: line)
    for (name, data) in before where !ignored.contains(name) {
        guard let other = after[name] else { continue }
        XCTAssertTrue(data == other, "\(name) changed: \(data?.count ?? -1) bytes before, \(other?.count ?? -1) after",
                      file: file, line: line)
    }
}

/// Runs `body`, which must throw a `PersistError`; returns it (nil after recording a failure).
@discardableResult
func expectPersistError<T>(_ body: @autoclosure () throws -> T, _ codes: Set<PersistError.Code>, _ message: String = "",
                           file: StaticString = #filePath, line: UInt = #line) -> PersistError? {
    do {
        _ = try body()
        XCTFail("Expected a PersistError (\(codes.map(\.rawValue).sorted().joined(separator: " or "))), but nothing was thrown. \(message)",
                file: file, line: line)
        return nil
    } catch let error as PersistError {
        XCTAssertTrue(codes.contains(error.code),
                      "Expected \(codes.map(\.rawValue).sorted().joined(separator: " or ")), got \(error.code): \(error). \(message)",
                      file: file, line: line)
        return error
    } catch {
        XCTFail("Expected a PersistError, got \(type(of: error)): \(error). \(message)", file: file, line: line)
        return nil
    }
}

/// Creates a store of `entities` at `url` with `count` tasks (when the model has TestTask),
/// then closes it: every container and context is released before this returns.
@discardableResult
func writeStore(at url: URL, entities: [ManagedObject.Type] = [TestTask.self], count: Int = 3) throws -> String {
    let model = try ManagedObjectModel(entities: entities)
    let container = try PersistentContainer(model: model, store: .sqlite(url))
    let context = container.newContext()
    if model.entity(for: TestTask.self) != nil {
        for index in 0..<count {
            let task = TestTask(context: context)
            task.name = "task \(index) " + String(repeating: "x", count: 200)
            task.count = index
        }
    }
    try context.save()
    return container.storeIdentifier
}

func taskModel() throws -> ManagedObjectModel { try ManagedObjectModel(entities: [TestTask.self]) }

/// Creates a database that PersistKit did not write, with the connection type PersistKit uses
/// internally, and closes it.
func writeForeignDatabase(at url: URL) throws {
    let connection = try SQLiteConnection(path: url.path, configuration: SQLiteConnection.Configuration())
    try connection.execute("CREATE TABLE people (name TEXT NOT NULL, age INTEGER); INSERT INTO people VALUES ('Ada', 36), ('Alan', 41)")
}

/// Runs `sql` on the database at `url` with a plain connection, bypassing every check a store
/// makes, and closes it so that its WAL is checkpointed and removed.
func runRawSQL(_ sql: String, on url: URL) throws {
    let connection = try SQLiteConnection(path: url.path, configuration: SQLiteConnection.Configuration())
    try connection.execute(sql)
    connection.allowCheckpointOnClose()
}

func fileExists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

func walURL(_ url: URL) -> URL { URL(fileURLWithPath: url.path + "-wal") }
func shmURL(_ url: URL) -> URL { URL(fileURLWithPath: url.path + "-shm") }
