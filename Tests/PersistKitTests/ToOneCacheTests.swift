import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// The to-one cache (one entry inline, the rest in a dictionary) agrees with a dictionary.
final class ToOneCacheTests: XCTestCase {
    func testRandomOperationsAgreeWithDictionary() throws {
        let seed = testSeed("ToOneCacheTests.testRandomOperationsAgreeWithDictionary")
        var rng = SeededGenerator(seed: seed)
        let container = try PersistentContainer(model: try ManagedObjectModel(entities: graphEntities), store: .inMemory)
        let context = container.newContext()
        let objects = (0..<4).map { index -> GProject in
            let project = GProject(context: context)
            project.name = "p\(index)"
            return project
        }
        var cache = ToOneCache()
        var expected: [Int: (reference: Int64, object: ManagedObject)] = [:]
        for step in 0..<testSize("ToOneCacheTests operations", full: 20_000, ci: 5_000) {
            let index = Int.random(in: 0..<4, using: &rng)
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<4:
                let object: ManagedObject = objects[Int.random(in: 0..<objects.count, using: &rng)]
                let entry = (reference: Int64(step), object: object)
                cache[index] = entry
                expected[index] = entry
            case 4..<7:
                cache[index] = nil
                expected[index] = nil
            case 7:
                cache.removeAll()
                expected.removeAll()
            default:
                break
            }
            for probe in 0..<4 {
                XCTAssertEqual(cache[probe]?.reference, expected[probe]?.reference, "step \(step), index \(probe) (seed \(seed))")
                XCTAssertTrue(cache[probe]?.object === expected[probe]?.object, "step \(step), index \(probe) (seed \(seed))")
            }
        }
    }
}
