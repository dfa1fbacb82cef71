import Foundation
import XCTest
@testable import PersistKit
import PersistKitTestSupport

enum StoreKind: CaseIterable {
    case sqlite, inMemory
}

let standardEntities: [ManagedObject.Type] = [TestTask.self, Everything.self, Index.self, Account.self, Checked.self]

/// Builds a container on a fresh store of the given kind.
func makeContainer(_ kind: StoreKind, in directory: TemporaryDirectory,
                   entities: [ManagedObject.Type] = standardEntities) throws -> PersistentContainer {
    let model = try ManagedObjectModel(entities: entities)
    switch kind {
    case .sqlite: return try PersistentContainer(model: model, store: .sqlite(directory.file("store-\(UUID().uuidString).sqlite")))
    case .inMemory: return try PersistentContainer(model: model, store: .inMemory)
    }
}

/// Runs `body` once against a fresh SQLite file store and once against an in-memory store.
func forEachStore(entities: [ManagedObject.Type] = standardEntities, file: StaticString = #filePath, line: UInt = #line,
                  _ body: (PersistentContainer, StoreKind) throws -> Void) {
    for kind in StoreKind.allCases {
        let directory = TemporaryDirectory()
        do {
            try body(try makeContainer(kind, in: directory, entities: entities), kind)
        } catch {
            XCTFail("[\(kind)] \(error)", file: file, line: line)
        }
    }
}
