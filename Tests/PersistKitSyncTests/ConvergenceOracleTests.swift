import Foundation
import PersistKit
import PersistKitTestSupport
@testable import PersistKitSync
import XCTest

/// The convergence oracle: three stores make random offline edits (inserts, updates,
/// deletes, relinks, ordered moves, pins, labels whose names collide across stores) and sync
/// in random orders and interleavings; after every full round (each store syncs, then each
/// again) the three graphs are identical, and equal to ``ReferenceSpace``'s merge of the same
/// edits. Prints its seed and size; ≥ 300 rounds, fewer under `CI=true`.
final class ConvergenceOracleTests: SyncTestCase {
    private struct Store {
        let name: String
        let container: PersistentContainer
        let engine: SyncEngine
        var pending: [ReferenceSpace.Edit] = []
    }

    private var generator = SeededGenerator(seed: 0)
    private var time = 0
    private let labelNames = ["red", "green", "blue", "urgent", "later", "home"]

    private func random(_ range: Range<Int>) -> Int { Int.random(in: range, using: &generator) }
    private func chance(_ percent: Int) -> Bool { random(0..<100) < percent }

    func testRandomOfflineEditsOfThreeStoresConvergeToTheReferenceMerge() async throws {
        let seed = testSeed("ConvergenceOracleTests")
        let rounds = testSize("ConvergenceOracleTests rounds", full: 300, ci: 40)
        generator = SeededGenerator(seed: seed)
        var stores = try ["a", "b", "c"].map { name in
            let container = try makeContainer(name)
            return Store(name: name, container: container, engine: try engine(container))
        }
        for store in stores { try await store.engine.sync() }
        var reference = ReferenceSpace()
        var edits = 0, syncs = 0
        for round in 0..<rounds {
            // Offline edits, with some stores syncing in between.
            for _ in 0..<random(1..<7) {
                let index = random(0..<stores.count)
                stores[index].pending += try edit(stores[index])
                edits += 1
                if chance(20) {
                    let syncing = random(0..<stores.count)
                    try await sync(&stores[syncing], into: &reference)
                    syncs += 1
                }
            }
            // A full round: each store syncs, in a random order, and then each again.
            for _ in 0..<2 {
                for index in Array(stores.indices).shuffled(using: &generator) {
                    try await sync(&stores[index], into: &reference)
                    syncs += 1
                }
            }
            let graphs = try stores.map { try GraphSnapshot.of($0.container) }
            for (store, graph) in zip(stores.dropFirst(), graphs.dropFirst()) where graph != graphs[0] {
                XCTFail("round \(round) (seed \(seed)): store \(store.name) differs from store a:\n\(graph)\n---\n\(graphs[0])")
                return
            }
            let expected = reference.graph()
            if graphs[0].unordered != expected.unordered {
                XCTFail("round \(round) (seed \(seed)): the stores differ from the reference merge:\n\(graphs[0].unordered)\n---\n\(expected.unordered)")
                return
            }
        }
        print("ConvergenceOracleTests: \(rounds) rounds, \(edits) edits, \(syncs) syncs converged")
    }

    private func sync(_ store: inout Store, into reference: inout ReferenceSpace) async throws {
        try await store.engine.sync()
        reference.push(store.pending)
        store.pending = []
    }

    // MARK: Edits

    /// The global IDs of a store's objects.
    private func ids(_ container: PersistentContainer) throws -> (ManagedObject) -> String {
        try globalIDs(of: container)
    }

    /// One random edit, saved; returns what it did for the reference.
    private func edit(_ store: Store) throws -> [ReferenceSpace.Edit] {
        let context = store.container.newContext()
        let notes = try context.fetch(FetchRequest<SNote>(sortBy: [FetchSortDescriptor(\.title)]))
        let folders = try context.fetch(FetchRequest<SFolder>(sortBy: [FetchSortDescriptor(\.name)]))
        let labels = try context.fetch(FetchRequest<SLabel>(sortBy: [FetchSortDescriptor(\.name)]))
        let id = try ids(store.container)
        time += 1
        let now = time
        var edits: [ReferenceSpace.Edit] = []
        var inserted: [(ManagedObject, [String: String?], [(String, String, String)])] = []
        func set(_ object: ManagedObject, _ key: String, _ value: String?) {
            edits.append(.set(id: id(object), entity: object.entity.name, key: key, value: value, time: now))
        }
        let kind = notes.isEmpty ? 0 : random(0..<100)
        switch kind {
        case 0..<25:
            let note = SNote(context: context)
            note.title = "t\(random(0..<1000))"
            note.count = random(0..<100)
            note.score = Double(random(0..<1000)) / 8
            note.body = chance(50) ? "b\(random(0..<100))" : nil
            var links: [(String, String, String)] = []
            if let folder = folders.randomElement(using: &generator), chance(60) { note.folder = folder }
            if let label = labels.randomElement(using: &generator), chance(50) { note.labels = [label] }
            try context.save()
            let noteID = id(note)
            if let label = note.labels.first { links.append(("labels", noteID, id(label))) }
            inserted.append((note, ["title": note.title, "body": note.body, "count": String(note.count), "score": String(note.score),
                                    "folder": note.folder.map(id)], links))
        case 25..<45:
            let note = notes[random(0..<notes.count)]
            switch random(0..<3) {
            case 0:
                let old = note.title
                note.title = "t\(random(0..<1000))"
                if note.title != old { set(note, "title", note.title) }
            case 1:
                let old = note.count
                note.count = random(0..<100)
                if note.count != old { set(note, "count", String(note.count)) }
            default:
                let old = note.body
                note.body = chance(30) ? nil : "b\(random(0..<100))"
                if note.body != old { set(note, "body", note.body) }
            }
        case 45..<55:
            let note = notes[random(0..<notes.count)]
            let old = note.folder
            note.folder = chance(20) ? nil : folders.randomElement(using: &generator)
            // Giving a key the value it holds changes nothing: no edit to sync, none to merge.
            if note.folder !== old { set(note, "folder", note.folder.map(id)) }
        case 55..<65:
            let note = notes[random(0..<notes.count)]
            guard let label = labels.randomElement(using: &generator) else { break }
            let present = !note.labels.contains(label)
            if present { note.labels.insert(label) } else { note.labels.remove(label) }
            edits.append(.link(kind: "labels", from: id(note), to: id(label), present: present, time: now))
        case 65..<70:
            guard let folder = folders.filter({ $0.notes.count > 1 }).randomElement(using: &generator) else { break }
            var list = folder.notes
            list.insert(list.remove(at: random(0..<list.count)), at: random(0..<list.count))
            folder.notes = list
        case 70..<76:
            guard let folder = folders.randomElement(using: &generator) else { break }
            let note = notes[random(0..<notes.count)]
            if let index = folder.pinned.firstIndex(of: note) {
                folder.pinned.remove(at: index)
                edits.append(.link(kind: "pinned", from: id(folder), to: id(note), present: false, time: now))
            } else {
                folder.pinned.insert(note, at: random(0..<(folder.pinned.count + 1)))
                edits.append(.link(kind: "pinned", from: id(folder), to: id(note), present: true, time: now))
            }
        case 76..<81:
            let note = notes[random(0..<notes.count)]
            edits.append(.delete(id: id(note), time: now))
            context.delete(note)
        case 81..<87:
            let used = Set(labels.map(\.name))
            guard let name = labelNames.filter({ !used.contains($0) }).randomElement(using: &generator) else { break }
            let label = SLabel(context: context)
            label.name = name
            try context.save()
            inserted.append((label, ["name": name], []))
        case 87..<90:
            let used = Set(labels.map(\.name))
            guard let label = labels.randomElement(using: &generator),
                  let name = labelNames.filter({ !used.contains($0) }).randomElement(using: &generator) else { break }
            label.name = name
            set(label, "name", name)
        case 90..<92:
            guard let label = labels.randomElement(using: &generator) else { break }
            edits.append(.delete(id: id(label), time: now))
            context.delete(label)
        case 92..<97:
            let folder = SFolder(context: context)
            folder.name = "f\(random(0..<100))"
            try context.save()
            inserted.append((folder, ["name": folder.name], []))
        default:
            guard let folder = folders.randomElement(using: &generator) else { break }
            // Its notes lose their folder (the nullify rule), in the same save.
            for note in folder.notes { set(note, "folder", nil) }
            edits.append(.delete(id: id(folder), time: now))
            context.delete(folder)
        }
        if context.hasChanges { try context.save() }
        for (object, keys, links) in inserted {
            let objectID = id(object)
            for (key, value) in keys.sorted(by: { $0.key < $1.key }) {
                edits.append(.set(id: objectID, entity: object.entity.name, key: key, value: value, time: now))
            }
            for (kind, from, to) in links { edits.append(.link(kind: kind, from: from, to: to, present: true, time: now)) }
        }
        // The next edit's save comes at a later millisecond: the clocks order edits as made.
        usleep(2_000)
        return edits
    }
}
