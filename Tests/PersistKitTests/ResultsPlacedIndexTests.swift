import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// The controller's index of placed rows against a `Dictionary`: random sets and removals of
/// keys that collide often (few distinct keys, a small table that grows).
final class ResultsPlacedIndexTests: XCTestCase {
    func testRandomSetsAndRemovalsMatchADictionary() {
        let seed = testSeed(#function)
        var rng = SeededGenerator(seed: seed)
        let entries = (0..<8).map { ResultsEntry(key: Int64($0), values: []) }
        let steps = isCI ? 5_000 : 20_000
        for keySpace in [UInt64(20), 300, 5_000] {
            var index = ResultsPlacedIndex()
            var oracle: [UInt64: ResultsEntry] = [:]
            for step in 0..<steps {
                // Multiples of 16, as object addresses are, plus a few arbitrary keys.
                let raw = UInt64.random(in: 0..<keySpace, using: &rng)
                let key = Bool.random(using: &rng) ? raw &* 16 : raw &* 0xFFFF_FFFF_0000_0001
                if Int.random(in: 0..<3, using: &rng) == 0 {
                    index[key] = nil
                    oracle[key] = nil
                } else {
                    let entry = entries.randomElement(using: &rng)
                    index[key] = entry
                    oracle[key] = entry
                }
                XCTAssertEqual(index.count, oracle.count, "seed \(seed) step \(step)")
                guard step % 101 == 0 else { continue }
                for (key, entry) in oracle where index[key] !== entry {
                    XCTFail("seed \(seed) key space \(keySpace) step \(step): key \(key) lost")
                    return
                }
                XCTAssertNil(index[UInt64.max - 7], "seed \(seed)")
            }
        }
    }
}
