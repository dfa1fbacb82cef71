import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// The chunked row store of a results controller against a plain sorted array: random inserts
/// and removals, with chunks of a few rows so that chunks split, empty and go.
final class ResultsRowStoreTests: XCTestCase {
    private func entry(_ value: Int, key: Int64) -> ResultsEntry {
        ResultsEntry(key: key, values: [.integer(Int64(value))])
    }

    private func value(_ entry: ResultsEntry) -> Int64 {
        if case .integer(let value) = entry.key(0) { return value }
        return -1
    }

    /// Orders by value, then by key, as a controller orders rows.
    private func before(_ a: ResultsEntry, _ b: ResultsEntry) -> Bool {
        (value(a), a.savedKey) < (value(b), b.savedKey)
    }

    func testRandomInsertsAndRemovalsMatchASortedArray() {
        let seed = testSeed(#function)
        var rng = SeededGenerator(seed: seed)
        let steps = isCI ? 1_000 : 3_000
        for maxChunk in [2, 3, 8, 512] {
            var oracle = (0..<Int.random(in: 0..<40, using: &rng)).map { entry(Int.random(in: 0..<50, using: &rng), key: Int64($0)) }
            oracle.sort(by: before)
            var store = ResultsRowStore(oracle, maxChunk: maxChunk)
            var nextKey = Int64(oracle.count)
            for step in 0..<steps {
                let label = "seed \(seed) chunk \(maxChunk) step \(step)"
                if oracle.isEmpty || Int.random(in: 0..<5, using: &rng) < 3 {
                    let new = entry(Int.random(in: 0..<50, using: &rng), key: nextKey)
                    nextKey += 1
                    store.insert(new) { self.before($0, new) }
                    oracle.insert(new, at: oracle.firstIndex { !before($0, new) } ?? oracle.count)
                } else {
                    let position = Int.random(in: 0..<oracle.count, using: &rng)
                    store.remove(at: position)
                    oracle.remove(at: position)
                }
                XCTAssertEqual(store.count, oracle.count, label)
                guard step % 97 == 0 || step == steps - 1 else { continue }
                check(store, against: oracle, label: label, rng: &rng)
                if store.array.map(ObjectIdentifier.init) != oracle.map(ObjectIdentifier.init) { return }
            }
        }
    }

    private func check(_ store: ResultsRowStore, against oracle: [ResultsEntry], label: String, rng: inout SeededGenerator) {
        XCTAssertEqual(store.array.map(ObjectIdentifier.init), oracle.map(ObjectIdentifier.init), label)
        XCTAssertEqual(Array(store).map(ObjectIdentifier.init), oracle.map(ObjectIdentifier.init), label)
        for (position, row) in oracle.enumerated() where store[position] !== row {
            XCTFail("\(label): row \(position) differs")
            return
        }
        let probe = entry(Int.random(in: -1..<52, using: &rng), key: -1)
        XCTAssertEqual(store.partitionPoint { self.before($0, probe) }, oracle.firstIndex { !before($0, probe) } ?? oracle.count, label)
        let low = Int.random(in: 0...oracle.count, using: &rng), high = Int.random(in: low...oracle.count, using: &rng)
        XCTAssertEqual(store.slice(low..<high).map(ObjectIdentifier.init), oracle[low..<high].map(ObjectIdentifier.init), label)
    }

    func testAFetchedStoreSharesItsArrayUntilItChanges() {
        let rows = (0..<10).map { entry($0, key: Int64($0)) }
        var store = ResultsRowStore(rows, maxChunk: 4)
        XCTAssertEqual(store.array.map(ObjectIdentifier.init), rows.map(ObjectIdentifier.init))
        store.remove(at: 9)
        store.remove(at: 8)
        store.remove(at: 0)
        XCTAssertEqual(store.array.map(ObjectIdentifier.init), rows[1..<8].map(ObjectIdentifier.init))
        XCTAssertEqual(store[0] === rows[1], true)
        XCTAssertEqual(rows.count, 10, "the fetched array is never changed")
    }
}
