import Foundation
import XCTest
@testable import PersistKit

/// A temporary directory per test, removed afterwards.
final class TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("persistkit-tests-" + UUID().uuidString)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(at: url) }
}

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
func forEachStore(file: StaticString = #filePath, line: UInt = #line,
                  _ body: (PersistentContainer, StoreKind) throws -> Void) {
    for kind in StoreKind.allCases {
        let directory = TemporaryDirectory()
        do {
            try body(try makeContainer(kind, in: directory), kind)
        } catch {
            XCTFail("[\(kind)] \(error)", file: file, line: line)
        }
    }
}

/// A seeded generator (SplitMix64), so generated tests can be replayed from a printed seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A seed from the environment (PERSISTKIT_SEED) or fresh, printed so a failure can be replayed.
func testSeed(_ name: String) -> UInt64 {
    if let text = ProcessInfo.processInfo.environment["PERSISTKIT_SEED"], let seed = UInt64(text) { return seed }
    return UInt64.random(in: 1...UInt64.max / 2)
}
