import Foundation
import PersistKit
import XCTest

/// Holds a model to its committed history: the directory of model documents (`Schema/<Model>/`,
/// `1.json`, `2.json`...) must end with the model's own version, whose document must be the
/// code's model exactly, and every older version must migrate to it (`MigrationPlan.check`).
///
/// ```swift
/// func testModelMatchesItsSchemaHistory() throws {
///     try assertModelMatchesSchemaHistory(TaskStore.makeModel(), directory: schemaDirectory, stages: TaskStore.migrationStages)
/// }
/// ```
///
/// A model changed without a new version fails here, as does a new version without its
/// document. With `PERSISTKIT_WRITE_SCHEMA=1` set, the document of the model's own version is
/// written first (a deliberate act, for a new version): older versions' documents are never
/// written, since released documents never change.
public func assertModelMatchesSchemaHistory(_ model: ManagedObjectModel, directory: URL, stages: [MigrationStage] = [],
                                            file: StaticString = #filePath, line: UInt = #line) throws {
    for problem in try schemaHistoryProblems(model, directory: directory, stages: stages) {
        XCTFail(problem, file: file, line: line)
    }
}

/// What ``assertModelMatchesSchemaHistory(_:directory:stages:file:line:)`` finds wrong (empty
/// when nothing is); a change that no stage can make throws the planner's error.
public func schemaHistoryProblems(_ model: ManagedObjectModel, directory: URL, stages: [MigrationStage] = []) throws -> [String] {
    let ownURL = directory.appendingPathComponent("\(model.version).json")
    if ProcessInfo.processInfo.environment["PERSISTKIT_WRITE_SCHEMA"] == "1" {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try model.document.write(to: ownURL)
    }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    let versions = names.compactMap { $0.hasSuffix(".json") ? Int($0.dropLast(5)) : nil }.sorted()
    guard let newest = versions.last else {
        return ["No model documents in \(directory.path): write \(model.version).json from the model's document "
                + "(PERSISTKIT_WRITE_SCHEMA=1)"]
    }
    guard newest == model.version else {
        return [newest < model.version
                ? "The model is version \(model.version), but the newest document in \(directory.path) is \(newest).json: "
                  + "commit \(model.version).json (PERSISTKIT_WRITE_SCHEMA=1)"
                : "The model is version \(model.version), but \(directory.path) has \(newest).json: the code's model is older "
                  + "than the committed history"]
    }
    let committed = try Data(contentsOf: ownURL)
    if committed != model.document && !sameJSON(committed, model.document) {
        return ["""
            The model differs from \(ownURL.path), the document of its version \(model.version).
            A released version never changes: a schema change needs version \(model.version + 1), its document, and
            (when it cannot be inferred) a migration stage. The code's model document is:
            \(String(decoding: model.document, as: UTF8.self))
            """]
    }
    try MigrationPlan(documentsIn: directory, stages: stages).check(upTo: model)
    return []
}

private func sameJSON(_ a: Data, _ b: Data) -> Bool {
    guard let left = try? JSONSerialization.jsonObject(with: a) as? NSObject,
          let right = try? JSONSerialization.jsonObject(with: b) as? NSObject else { return false }
    return left.isEqual(right)
}
