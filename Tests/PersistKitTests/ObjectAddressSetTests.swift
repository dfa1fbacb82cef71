import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// The set of objects by address (a pending notice's deletions) agrees with a `Set` of object
/// identifiers under random inserts and removals, through growth and backward-shift deletion.
final class ObjectAddressSetTests: XCTestCase {
    private final class Item {}

    func testRandomOperationsAgreeWithSet() {
        let seed = testSeed(#function)
        var rng = SeededGenerator(seed: seed)
        let items = (0..<(isCI ? 2_000 : 5_000)).map { _ in Item() }
        var set = ObjectAddressSet()
        var reference = Set<ObjectIdentifier>()
        for step in 0..<60_000 {
            let item = items.randomElement(using: &rng) ?? items[0]
            let id = ObjectIdentifier(item)
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5:
                XCTAssertEqual(set.insert(item), reference.insert(id).inserted, "seed \(seed) step \(step)")
            case 5..<8:
                XCTAssertEqual(set.remove(item), reference.remove(id) != nil, "seed \(seed) step \(step)")
            default:
                XCTAssertEqual(set.contains(item), reference.contains(id), "seed \(seed) step \(step)")
            }
            if step % 6_000 == 0 {
                XCTAssertEqual(set.count, reference.count, "seed \(seed) step \(step)")
                for item in items { XCTAssertEqual(set.contains(item), reference.contains(ObjectIdentifier(item))) }
            }
        }
        set.reserveCapacity(50_000)
        XCTAssertEqual(set.count, reference.count, "seed \(seed)")
        for item in items { XCTAssertEqual(set.contains(item), reference.contains(ObjectIdentifier(item)), "seed \(seed)") }
        set.removeAll()
        XCTAssertTrue(set.isEmpty)
        XCTAssertFalse(items.contains { set.contains($0) })
    }
}
