import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// The identity map agrees with a Dictionary under random inserts, replacements and removals
/// (keys that collide, zero and negative keys, growth past many sizes).
final class IdentityMapTests: XCTestCase {
    func testRandomOperationsAgreeWithDictionary() {
        let seed = testSeed(#function)
        var rng = SeededGenerator(seed: seed)
        let entity = EntityDescription(name: "E", objectClass: ManagedObject.self, isClassBacked: false,
                                       attributes: [], valueTypes: [], uniquenessConstraints: [])
        let objects = (0..<64).map { _ in ManagedObject(entity: entity, insertInto: nil) }
        var map = IdentityMap()
        var reference: [Int64: ManagedObject] = [:]
        for step in 0..<50_000 {
            let key = Int64.random(in: -20...3_000, using: &rng) * (Bool.random(using: &rng) ? 1 : 1_024)
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5:
                let object = objects.randomElement(using: &rng) ?? objects[0]
                map[key] = object
                reference[key] = object
            case 5..<8:
                XCTAssertTrue(map.removeValue(forKey: key) === reference.removeValue(forKey: key), "seed \(seed) step \(step)")
            default:
                XCTAssertTrue(map[key] === reference[key], "seed \(seed) step \(step)")
            }
            if step % 5_000 == 0 {
                XCTAssertEqual(map.count, reference.count, "seed \(seed) step \(step)")
                XCTAssertEqual(Set(map.allKeys), Set(reference.keys), "seed \(seed) step \(step)")
                for (key, object) in reference { XCTAssertTrue(map[key] === object, "seed \(seed) key \(key)") }
            }
        }
        map.reserveCapacity(100_000)
        for (key, object) in reference { XCTAssertTrue(map[key] === object) }
        XCTAssertEqual(map.values.count, reference.count)
    }
}
