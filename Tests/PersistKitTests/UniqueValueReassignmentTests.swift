import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Three uniqueness constraints: a text key, an integer key, and a compound one.
final class URSlot: ManagedObject {
    override class var uniquenessConstraints: [[String]] { [["code"], ["group", "rank"]] }
    @Attribute(.unique) var label: String
    @Attribute var code: Int
    @Attribute var group: String
    @Attribute var rank: Int
    @Attribute var note: String?
}

/// A save whose end state is unique succeeds whatever order its rows reach SQLite in (SQLite
/// checks a unique index row by row): swaps, rotations and renames onto values given up in
/// the same save, with inserts and deletes mixed in, under every constraint; its history
/// names exactly the rows it changed, each once.
final class UniqueValueReassignmentTests: XCTestCase {
    private func makeStore(_ kind: StoreKind = .sqlite, _ directory: TemporaryDirectory) throws -> PersistentContainer {
        try makeContainer(kind, in: directory, entities: [URSlot.self, Account.self])
    }

    /// The values of one object: its three constraints' keys (the last a pair) and a plain key.
    private struct Values: Hashable {
        var label: String
        var code: Int
        var group: String
        var rank: Int
        var note: String?
    }

    private func values(_ slot: URSlot) -> Values {
        Values(label: slot.label, code: slot.code, group: slot.group, rank: slot.rank, note: slot.note)
    }

    private func assign(_ values: Values, to slot: URSlot) {
        slot.label = values.label
        slot.code = values.code
        slot.group = values.group
        slot.rank = values.rank
        slot.note = values.note
    }

    private func storedValues(_ container: PersistentContainer) throws -> [Int64: Values] {
        var stored: [Int64: Values] = [:]
        for slot in try container.newContext().fetch(FetchRequest<URSlot>()) {
            stored[slot.objectID.primaryKey ?? -1] = values(slot)
        }
        return stored
    }

    private func versions(_ container: PersistentContainer) throws -> [Int64: Int64] {
        try container.store.withConnection { connection in
            let statement = try connection.prepare(#"SELECT "_pk", "_version" FROM "URSlot""#)
            var versions: [Int64: Int64] = [:]
            while try statement.step() { versions[statement.int64(at: 0)] = statement.int64(at: 1) }
            return versions
        }
    }

    // MARK: Named shapes

    func testASwapSucceeds() throws {
        for kind in StoreKind.allCases {
            let directory = TemporaryDirectory()
            let container = try makeStore(kind, directory)
            let context = container.newContext()
            let a = Account(context: context), b = Account(context: context)
            a.email = "a@example.com"
            b.email = "b@example.com"
            try context.save()
            a.email = "b@example.com"
            b.email = "a@example.com"
            try context.save()
            let emails = try container.newContext().fetch(FetchRequest<Account>()).map { ($0.objectID, $0.email) }
            XCTAssertEqual(Dictionary(uniqueKeysWithValues: emails), [a.objectID: "b@example.com", b.objectID: "a@example.com"], "\(kind)")
        }
    }

    /// The same save, 50 times over in fresh stores: objects land at other addresses each
    /// time, so the context's hash tables hand the rows to the store in other orders.
    func testTheSameSaveSucceedsFiftyTimes() throws {
        for round in 0..<50 {
            let directory = TemporaryDirectory()
            let container = try makeStore(.sqlite, directory)
            let context = container.newContext()
            let slots = (0..<3).map { index -> URSlot in
                let slot = URSlot(context: context)
                assign(Values(label: "l\(index)", code: index, group: "g", rank: index, note: nil), to: slot)
                return slot
            }
            try context.save()
            // A rename onto a value given up (0 takes 1's label), a rotation of codes, a swap
            // of one part of a compound key (ranks 0 <-> 2 within group g).
            assign(Values(label: "l1", code: 1, group: "g", rank: 2, note: nil), to: slots[0])
            assign(Values(label: "fresh", code: 2, group: "g", rank: 1, note: "x"), to: slots[1])
            assign(Values(label: "l2", code: 0, group: "g", rank: 0, note: nil), to: slots[2])
            XCTAssertNoThrow(try context.save(), "round \(round)")
            XCTAssertEqual(try storedValues(container).values.map(\.label).sorted(), ["fresh", "l1", "l2"], "round \(round)")
        }
    }

    func testARotationAcrossACompoundKeyWithAnInsertAndADelete() throws {
        let directory = TemporaryDirectory()
        let container = try makeStore(.sqlite, directory)
        let context = container.newContext()
        let slots = (0..<4).map { index -> URSlot in
            let slot = URSlot(context: context)
            assign(Values(label: "l\(index)", code: index, group: index < 2 ? "a" : "b", rank: index % 2, note: nil), to: slot)
            return slot
        }
        try context.save()
        // (a,0) -> (a,1) -> (b,0) -> (a,0); slot 3 (b,1) deleted, its pair and label taken by an insert.
        context.delete(slots[3])
        slots[0].rank = 1
        slots[1].group = "b"
        slots[1].rank = 0
        slots[2].group = "a"
        let inserted = URSlot(context: context)
        assign(Values(label: "l3", code: 3, group: "b", rank: 1, note: nil), to: inserted)
        try context.save()
        let stored = try storedValues(container)
        XCTAssertEqual(stored.count, 4)
        XCTAssertEqual(stored[slots[0].objectID.primaryKey ?? -1].map { [$0.group, String($0.rank)] }, ["a", "1"])
        XCTAssertEqual(stored[slots[1].objectID.primaryKey ?? -1].map { [$0.group, String($0.rank)] }, ["b", "0"])
        XCTAssertEqual(stored[slots[2].objectID.primaryKey ?? -1].map { [$0.group, String($0.rank)] }, ["a", "0"])
        XCTAssertEqual(stored[inserted.objectID.primaryKey ?? -1]?.label, "l3")
    }

    /// A save that really collides still fails, names the collision, and changes nothing.
    func testARealCollisionStillFailsAndChangesNothing() throws {
        let directory = TemporaryDirectory()
        let container = try makeStore(.sqlite, directory)
        let context = container.newContext()
        let a = Account(context: context), b = Account(context: context), c = Account(context: context)
        a.email = "a"
        b.email = "b"
        c.email = "c"
        try context.save()
        a.email = "b"
        b.email = "c"
        XCTAssertThrowsError(try context.save()) { error in
            XCTAssertEqual((error as? PersistError)?.code, .constraintViolation)
        }
        XCTAssertEqual(try container.newContext().fetch(FetchRequest<Account>()).map(\.email).sorted(), ["a", "b", "c"])
        c.email = "a"   // now a rotation: valid
        try context.save()
        XCTAssertEqual(try container.newContext().fetch(FetchRequest<Account>()).map(\.email).sorted(), ["a", "b", "c"])
    }

    /// A row changed by another context since it was read is still a conflict when this save
    /// moves its unique values: the move does not write over the other save.
    func testAMovedRowChangedElsewhereIsStillAConflict() throws {
        let directory = TemporaryDirectory()
        let container = try makeStore(.sqlite, directory)
        let context = container.newContext()
        let a = Account(context: context), b = Account(context: context)
        a.email = "a"
        b.email = "b"
        try context.save()
        let other = container.newContext()
        let otherA = try XCTUnwrap(other.fetch(FetchRequest<Account>()).first { $0.email == "a" })
        otherA.email = "z"
        try other.save()
        a.email = "b"
        b.email = "a"
        XCTAssertThrowsError(try context.save()) { error in
            XCTAssertEqual((error as? PersistError)?.code, .conflict, "\(error)")
        }
        XCTAssertEqual(try container.newContext().fetch(FetchRequest<Account>()).map(\.email).sorted(), ["b", "z"])
    }

    // MARK: Generated

    /// 200 saves, each a random permutation of the unique values of 2-20 objects (with fresh
    /// values, deletes that give values up and inserts that take them mixed in), every one in
    /// one save; the store ends with exactly the context's values, each changed row's version
    /// moved by one, and the save's history names each changed row once with its keys.
    func testRandomPermutationsOfUniqueValuesSaveInOneSave() throws {
        let seed = testSeed("UniqueValueReassignmentTests.testRandomPermutationsOfUniqueValuesSaveInOneSave")
        let rounds = testSize("UniqueValueReassignmentTests.testRandomPermutationsOfUniqueValuesSaveInOneSave", full: 200, ci: 200)
        var random = SeededGenerator(seed: seed)
        let directory = TemporaryDirectory()
        for round in 0..<rounds {
            let container = try makeStore(.sqlite, directory)
            let context = container.newContext()
            let count = Int.random(in: 2...20, using: &random)
            var slots: [URSlot] = []
            for index in 0..<count {
                let slot = URSlot(context: context)
                assign(Values(label: "l\(index)", code: index, group: "g\(index % 3)", rank: index / 3, note: nil), to: slot)
                slots.append(slot)
            }
            try context.save()
            let before = try versions(container)
            let token = try container.history(after: nil).last?.token

            // Each constraint's values are dealt out again among the survivors and inserts:
            // the values in use, plus a few fresh ones, shuffled.
            let deleted = Set(slots.indices.filter { _ in Int.random(in: 0..<6, using: &random) == 0 })
            let survivors = slots.indices.filter { !deleted.contains($0) }
            let insertCount = Int.random(in: 0...3, using: &random)
            let holders = survivors.count + insertCount
            let fresh = Int.random(in: 0...3, using: &random)
            let labels = ((0..<count).map { "l\($0)" } + (0..<(fresh + insertCount)).map { "n\($0)" }).shuffled(using: &random)
            let codes = (Array(0..<count) + (0..<(fresh + insertCount)).map { 100 + $0 }).shuffled(using: &random)
            let pairs = ((0..<count).map { ("g\($0 % 3)", $0 / 3) } + (0..<(fresh + insertCount)).map { ("g\($0 % 2)", 50 + $0) })
                .shuffled(using: &random)
            var expected: [URSlot: Values] = [:]
            var inserts: [URSlot] = []
            for holder in 0..<holders {
                let slot: URSlot
                if holder < survivors.count {
                    slot = slots[survivors[holder]]
                } else {
                    slot = URSlot(context: context)
                    inserts.append(slot)
                }
                let old = holder < survivors.count ? values(slot) : nil
                let note = Int.random(in: 0..<4, using: &random) == 0 ? "note \(round)" : old?.note
                expected[slot] = Values(label: labels[holder], code: codes[holder], group: pairs[holder].0, rank: pairs[holder].1, note: note)
            }
            for index in deleted { context.delete(slots[index]) }
            // Values assigned in a random order too.
            for (slot, values) in expected.shuffled(using: &random) { assign(values, to: slot) }
            let changed = Set(survivors.filter { slots[$0].hasChanges }.map { slots[$0].objectID })
            let changedKeys = Dictionary(uniqueKeysWithValues: survivors.map { index in
                (slots[index].objectID, Set(slots[index].changedValues().keys))
            })

            do {
                try context.save()
            } catch {
                XCTFail("seed \(seed) round \(round) (\(count) objects, \(deleted.count) deleted, \(insertCount) inserted): \(error)")
                continue
            }
            let stored = try storedValues(container)
            XCTAssertEqual(stored.count, holders, "seed \(seed) round \(round)")
            for (slot, values) in expected {
                XCTAssertEqual(stored[slot.objectID.primaryKey ?? -1], values, "seed \(seed) round \(round)")
            }
            let after = try versions(container)
            for index in survivors {
                let key = slots[index].objectID.primaryKey ?? -1
                let moved = changed.contains(slots[index].objectID) ? 1 : 0
                XCTAssertEqual(after[key], before[key].map { $0 + Int64(moved) }, "seed \(seed) round \(round): one version step per changed row")
            }
            let transactions = try container.history(after: token)
            let wrote = !changed.isEmpty || !deleted.isEmpty || !inserts.isEmpty
            XCTAssertEqual(transactions.count, wrote ? 1 : 0, "seed \(seed) round \(round): one record, none when nothing changed")
            let changes = transactions.last?.changes ?? []
            let updates = changes.filter { $0.kind == .update }
            XCTAssertEqual(updates.count, changed.count, "seed \(seed) round \(round): each changed row once")
            for update in updates {
                XCTAssertEqual(Set(update.changedKeys), changedKeys[update.objectID], "seed \(seed) round \(round)")
            }
            XCTAssertEqual(Set(changes.filter { $0.kind == .delete }.map(\.objectID)), Set(deleted.map { slots[$0].objectID }))
            XCTAssertEqual(Set(changes.filter { $0.kind == .insert }.map(\.objectID)), Set(inserts.map(\.objectID)))
        }
    }
}
