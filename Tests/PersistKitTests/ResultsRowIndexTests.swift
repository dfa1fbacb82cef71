import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// The refetch's index of row positions by identity, against a `Dictionary`: generated lists
/// of saved rows (by key, as a batched controller keeps them), saved objects and unsaved
/// inserts, with keys from a small range so that a temporary and a permanent key often share a
/// number, and the extreme keys included.
final class ResultsRowIndexTests: XCTestCase {
    private struct Identity: Hashable {
        let key: Int64
        let isTemporary: Bool
    }

    private let entity = EntityDescription(name: "Task", objectClass: ManagedObject.self, isClassBacked: false,
                                           attributes: [], valueTypes: [], uniquenessConstraints: [])

    private func object(_ identity: Identity) -> ManagedObject {
        let object = ManagedObject(entity: entity, insertInto: nil)
        object.objectID = ObjectID(scope: ObjectID.Scope(entityName: "Task", storeIdentifier: ""), key: identity.key,
                                   isTemporary: identity.isTemporary)
        return object
    }

    func testPositionsAgreeWithADictionary() {
        let seed = testSeed(#function)
        var rng = SeededGenerator(seed: seed)
        let lists = isCI ? 20 : 80
        for list in 0..<lists {
            let count = Int.random(in: 0...(list.isMultiple(of: 10) ? 3_000 : 200), using: &rng)
            // Room for the list's identities (2 × (2 × keySpace + 1) of them), and not much more.
            let keySpace = Int64.random(in: Int64(count / 2 + 1)...Int64(count * 2 + 1), using: &rng)
            var oracle: [Identity: Int] = [:]
            var rows: [ResultsEntry] = []
            while rows.count < count {
                let isTemporary = Int.random(in: 0..<4, using: &rng) == 0
                let key: Int64 = Int.random(in: 0..<50, using: &rng) == 0
                    ? [Int64.min, Int64.max, 0, -1].randomElement(using: &rng) ?? 0
                    : Int64.random(in: -keySpace...keySpace, using: &rng)
                let identity = Identity(key: key, isTemporary: isTemporary)
                guard oracle[identity] == nil else { continue }   // a list has each object once
                oracle[identity] = rows.count
                // Saved rows either as a batched controller's keys or as held objects.
                rows.append(!isTemporary && Bool.random(using: &rng)
                    ? ResultsEntry(key: key, values: [])
                    : ResultsEntry(object: object(identity), sorts: []))
            }
            let index = ResultsRowIndex(rows)
            for (position, row) in rows.enumerated() {
                XCTAssertEqual(index.position(of: row), position, "seed \(seed) list \(list): row \(position)")
                if let held = row.held {
                    XCTAssertEqual(index.position(of: held), position, "seed \(seed) list \(list): object at \(position)")
                }
            }
            // Identities the list does not have: same numbers of the other kind, and others.
            for _ in 0..<200 {
                let identity = Identity(key: Int64.random(in: (-keySpace - 2)...(keySpace + 2), using: &rng),
                                        isTemporary: Bool.random(using: &rng))
                let probe = object(identity)
                XCTAssertEqual(index.position(of: probe), oracle[identity], "seed \(seed) list \(list): \(identity)")
                if !identity.isTemporary {
                    XCTAssertEqual(index.position(of: ResultsEntry(key: identity.key, values: [])), oracle[identity],
                                   "seed \(seed) list \(list): keyed \(identity)")
                }
            }
        }
    }
}
