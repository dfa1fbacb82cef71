import PersistKitCollections
import PersistKitTestSupport
import XCTest

/// `Int64HashTable` agrees with `Dictionary` (and `Int64HashSet` with `Set`) under generated
/// operations: every entry point, keys that crowd one probe run, `Int64.min` (the key that
/// marks empty slots) and the other extremes, growth through many sizes, shrinking, draining.
/// Values are objects that count themselves, so a value the table leaks or frees twice shows.
final class Int64HashTableTests: XCTestCase {
    /// Counts the live values of one test.
    private final class Tally {
        var live = 0
    }

    private final class Tracked {
        let id: Int
        let tally: Tally

        init(_ id: Int, _ tally: Tally) {
            self.id = id
            self.tally = tally
            tally.live += 1
        }

        deinit { tally.live -= 1 }
    }

    /// A key from a mix that makes long probe runs and hits the extremes.
    private func randomKey(_ rng: inout SeededGenerator) -> Int64 {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: return [Int64.min, .min + 1, .max, 0, -1, 1].randomElement(using: &rng) ?? 0
        case 1...3: return Int64.random(in: -50...50, using: &rng)
        case 4...5: return Int64.random(in: 0...4_000, using: &rng) << 40   // differ in the high bits only
        case 6: return Int64.random(in: 0...4_000, using: &rng) &* 1_024
        default: return Int64.random(in: 0...20_000, using: &rng)
        }
    }

    func testRandomOperationsAgreeWithDictionary() {
        let seed = testSeed(#function)
        let steps = testSize("Int64HashTableTests.testRandomOperationsAgreeWithDictionary steps", full: 400_000, ci: 100_000)
        var rng = SeededGenerator(seed: seed)
        let tally = Tally()
        var nextID = 0
        func make() -> Tracked {
            nextID += 1
            return Tracked(nextID, tally)
        }
        do {
            var table = Int64HashTable<Tracked>()
            var reference: [Int64: Tracked] = [:]
            func check(_ step: Int) {
                XCTAssertEqual(table.count, reference.count, "seed \(seed) step \(step)")
                XCTAssertEqual(table.isEmpty, reference.isEmpty, "seed \(seed) step \(step)")
                var seen: [Int64: Int] = [:]
                table.forEach { key, value in seen[key] = value.id }
                XCTAssertEqual(seen, reference.mapValues(\.id), "seed \(seed) step \(step)")
                XCTAssertEqual(Set(table.keys), Set(reference.keys), "seed \(seed) step \(step)")
                XCTAssertEqual(Set(table.values.map(\.id)), Set(reference.values.map(\.id)), "seed \(seed) step \(step)")
                // Every value lives once: held by the reference (and the table), nothing leaked.
                XCTAssertEqual(tally.live, reference.count, "seed \(seed) step \(step)")
            }
            for step in 0..<steps {
                let key = randomKey(&rng)
                switch Int.random(in: 0..<100, using: &rng) {
                case 0..<25:
                    let value = make()
                    XCTAssertEqual(table.updateValue(value, forKey: key), reference.updateValue(value, forKey: key) == nil,
                                   "seed \(seed) step \(step)")
                case 25..<37:
                    let found = table.find(key)
                    XCTAssertTrue(found.value === reference[key], "seed \(seed) step \(step)")
                    if found.value == nil {
                        let value = make()
                        table.insert(value, forKey: key, at: found.position)
                        reference[key] = value
                    }
                case 37..<43:
                    if reference[key] == nil {
                        let value = make()
                        table.insertNew(value, forKey: key)
                        reference[key] = value
                    }
                case 43..<45:
                    // A batch of distinct keys the table does not hold, at once.
                    var batch: [(key: Int64, value: Tracked)] = []
                    for _ in 0..<Int.random(in: 0...60, using: &rng) {
                        let key = randomKey(&rng)
                        if reference[key] == nil && !batch.contains(where: { $0.key == key }) { batch.append((key, make())) }
                    }
                    table.insertNew(contentsOf: batch, key: { $0.key }, value: { $0.value })
                    for (key, value) in batch { reference[key] = value }
                case 45..<65:
                    XCTAssertTrue(table.removeValue(forKey: key) === reference.removeValue(forKey: key), "seed \(seed) step \(step)")
                case 65..<72:
                    // Removes only odd values.
                    let removed = table.removeValue(forKey: key) { $0.id % 2 == 1 }
                    let expected = reference[key].map { $0.id % 2 == 1 } ?? false
                    XCTAssertEqual(removed, expected, "seed \(seed) step \(step)")
                    if expected { reference[key] = nil }
                case 72..<90:
                    XCTAssertTrue(table[key] === reference[key], "seed \(seed) step \(step)")
                case 90..<98:
                    XCTAssertEqual(table.contains(key), reference[key] != nil, "seed \(seed) step \(step)")
                case 98:
                    table.reserveCapacity(reference.count + Int.random(in: 0...5_000, using: &rng))
                default:
                    table.shrinkIfSparse()
                }
                if step % 20_000 == 0 { check(step) }
                // Now and then, empty it (both ways) and start again.
                if step % 97_000 == 96_999 {
                    check(step)
                    if Bool.random(using: &rng) {
                        var drained: [Int64: Int] = [:]
                        table.drain { key, value in drained[key] = value.id }
                        XCTAssertEqual(drained, reference.mapValues(\.id), "seed \(seed) step \(step)")
                    } else {
                        table.removeAll()
                    }
                    reference.removeAll()
                    XCTAssertTrue(table.isEmpty, "seed \(seed) step \(step)")
                    XCTAssertEqual(tally.live, 0, "seed \(seed) step \(step): values live after emptying")
                }
            }
            check(steps)
            // Removing nearly everything from a large table, then shrinking, keeps the rest.
            table.reserveCapacity(200_000)
            for key in Array(reference.keys).dropFirst(10) {
                XCTAssertNotNil(table.removeValue(forKey: key), "seed \(seed) key \(key)")
                reference[key] = nil
            }
            table.shrinkIfSparse()
            check(steps + 1)
            for (key, value) in reference { XCTAssertTrue(table[key] === value, "seed \(seed) key \(key)") }
            reference.removeAll()
        }
        XCTAssertEqual(tally.live, 0, "seed \(seed): the table's deinit left values alive")
    }

    func testSetAgreesWithSet() {
        let seed = testSeed(#function)
        let steps = testSize("Int64HashTableTests.testSetAgreesWithSet steps", full: 300_000, ci: 80_000)
        var rng = SeededGenerator(seed: seed)
        var set = Int64HashSet()
        var reference = Set<Int64>()
        for step in 0..<steps {
            let key = randomKey(&rng)
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5: XCTAssertEqual(set.insert(key), reference.insert(key).inserted, "seed \(seed) step \(step)")
            case 5..<8: XCTAssertEqual(set.remove(key), reference.remove(key) != nil, "seed \(seed) step \(step)")
            default: XCTAssertEqual(set.contains(key), reference.contains(key), "seed \(seed) step \(step)")
            }
            if step % 30_000 == 0 {
                XCTAssertEqual(set.count, reference.count, "seed \(seed) step \(step)")
                XCTAssertEqual(Set(set.keys), reference, "seed \(seed) step \(step)")
            }
        }
        XCTAssertEqual(Set(set.keys), reference, "seed \(seed)")
        set.removeAll()
        XCTAssertTrue(set.isEmpty)
        XCTAssertFalse(reference.contains { set.contains($0) }, "seed \(seed)")
    }

    /// Trivial values through growth to a large table and back: counts, lookups and the sizes
    /// `reserveCapacity` and `init(minimumCapacity:)` promise (no growth up to them).
    func testLargeTableOfIntegers() {
        let seed = testSeed(#function)
        let size = testSize("Int64HashTableTests.testLargeTableOfIntegers entries", full: 300_000, ci: 100_000)
        var rng = SeededGenerator(seed: seed)
        var table = Int64HashTable<Int>(minimumCapacity: size)
        var reference: [Int64: Int] = [:]
        for index in 0..<size {
            let key = Int64.random(in: Int64.min...Int64.max, using: &rng)
            table.updateValue(index, forKey: key)
            reference[key] = index
        }
        XCTAssertEqual(table.count, reference.count, "seed \(seed)")
        for (key, value) in reference { XCTAssertEqual(table[key], value, "seed \(seed) key \(key)") }
        var removed = 0
        for key in reference.keys where removed < reference.count - 100 {
            XCTAssertEqual(table.removeValue(forKey: key), reference[key], "seed \(seed) key \(key)")
            removed += 1
        }
        table.shrinkIfSparse()
        XCTAssertEqual(table.count, reference.count - removed, "seed \(seed)")
        XCTAssertEqual(table.values.count, table.count, "seed \(seed)")
        table.forEach { key, value in XCTAssertEqual(reference[key], value, "seed \(seed) key \(key)") }
    }
}
