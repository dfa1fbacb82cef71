import Foundation

/// The convergence oracle's reference: what a space must hold, computed from the edits the
/// test made, independently of PersistKitSync. It replays each store's pushes in the order
/// the stores pushed, as the rules say a server settles them:
///
/// - each key keeps the value of the latest edit (edits are made one after another, each
///   a save of its own a few milliseconds after the last, so their order is the clocks' order);
/// - a deleted object stays deleted;
/// - after each push, live labels with the same name merge into the one with the smallest ID,
///   which takes the latest value of every key of both and every link of both (a link both had
///   keeps its latest state); edits of a merged label's ID land on its winner;
/// - a link is present when its latest edit added it; a reference or link to a dead object
///   reads as absent.
///
/// Ordered lists are compared as sets here (their order is compared across the stores).
struct ReferenceSpace {
    /// One edit, as a store made it.
    enum Edit {
        case set(id: String, entity: String, key: String, value: String?, time: Int)
        case delete(id: String, time: Int)
        case link(kind: String, from: String, to: String, present: Bool, time: Int)
    }

    private struct Object {
        var entity: String
        var keys: [String: (value: String?, time: Int)] = [:]
        var deleted = false
        var mergedInto: String?
    }

    private struct LinkKey: Hashable {
        let kind: String, from: String, to: String
    }

    private var objects: [String: Object] = [:]
    private var links: [LinkKey: (present: Bool, time: Int)] = [:]

    private func resolve(_ id: String) -> String {
        var current = id
        var seen = Set<String>()
        while let next = objects[current]?.mergedInto, seen.insert(current).inserted { current = next }
        return current
    }

    private func isAlive(_ id: String) -> Bool {
        guard let object = objects[id] else { return false }
        return !object.deleted && object.mergedInto == nil
    }

    /// Applies one store's push: its edits since its last push, in the order made.
    mutating func push(_ edits: [Edit]) {
        for edit in edits {
            switch edit {
            case .set(let id, let entity, let key, let value, let time):
                let target = resolve(id)
                var object = objects[target] ?? Object(entity: entity)
                if (object.keys[key]?.time ?? -1) < time { object.keys[key] = (value, time) }
                objects[target] = object
            case .delete(let id, _):
                let target = resolve(id)
                objects[target, default: Object(entity: "?")].deleted = true
            case .link(let kind, let from, let to, let present, let time):
                let key = LinkKey(kind: kind, from: resolve(from), to: resolve(to))
                if (links[key]?.time ?? -1) < time { links[key] = (present, time) }
            }
        }
        mergeLabels()
    }

    /// Live labels sharing a name merge into the smallest ID.
    private mutating func mergeLabels() {
        var byName: [String: [String]] = [:]
        for (id, object) in objects where object.entity == "SLabel" && isAlive(id) {
            if let name = object.keys["name"]?.value { byName[name, default: []].append(id) }
        }
        for ids in byName.values where ids.count > 1 {
            let sorted = ids.sorted()
            let winner = sorted[0]
            for loser in sorted.dropFirst() {
                for (key, entry) in objects[loser]?.keys ?? [:] where (objects[winner]?.keys[key]?.time ?? -1) < entry.time {
                    objects[winner]?.keys[key] = entry
                }
                objects[loser]?.mergedInto = winner
                for (link, state) in links where link.from == loser || link.to == loser {
                    let moved = LinkKey(kind: link.kind, from: link.from == loser ? winner : link.from, to: link.to == loser ? winner : link.to)
                    if (links[moved]?.time ?? -1) < state.time { links[moved] = state }
                    links[link] = nil
                }
            }
        }
    }

    /// The space's graph as stores must show it: live objects, references to live objects,
    /// present links between live objects; ordered lists in ID order (compare them as sets).
    func graph() -> GraphSnapshot {
        var snapshot = GraphSnapshot()
        func live(_ id: String?) -> String? { id.map(resolve).flatMap { isAlive($0) ? $0 : nil } }
        func linked(_ kind: String, from: String) -> [String] {
            links.filter { $0.key.kind == kind && resolve($0.key.from) == from && $0.value.present }
                .compactMap { live($0.key.to) }.sorted()
        }
        for (id, object) in objects where isAlive(id) {
            func text(_ key: String) -> String? { object.keys[key]?.value ?? nil }
            switch object.entity {
            case "SNote":
                snapshot.notes[id] = GraphSnapshot.NoteValues(
                    title: text("title") ?? "", body: text("body"), count: Int(text("count") ?? "0") ?? 0,
                    score: Double(text("score") ?? "0") ?? 0, due: nil, folder: live(text("folder")),
                    labels: links.filter { $0.key.kind == "labels" && resolve($0.key.from) == id && $0.value.present }
                        .compactMap { live($0.key.to) }.sorted())
            case "SFolder":
                snapshot.folders[id] = GraphSnapshot.FolderValues(name: text("name") ?? "", notes: [], pinned: linked("pinned", from: id))
            case "SLabel":
                snapshot.labels[id] = text("name") ?? ""
            default:
                break
            }
        }
        for (id, note) in snapshot.notes {
            if let folder = note.folder { snapshot.folders[folder]?.notes.append(id) }
        }
        for id in snapshot.folders.keys { snapshot.folders[id]?.notes.sort() }
        return snapshot
    }
}

extension GraphSnapshot {
    /// The same graph with ordered lists as sorted sets (for the reference, which has no order).
    var unordered: GraphSnapshot {
        var copy = self
        for id in copy.folders.keys {
            copy.folders[id]?.notes.sort()
            copy.folders[id]?.pinned.sort()
        }
        return copy
    }
}
