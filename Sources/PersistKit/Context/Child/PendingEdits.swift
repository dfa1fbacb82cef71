/// A context's unsaved edits as values, relative to a base: the store (what a new child
/// context takes from its parent) or a child's baselines (what a child's save pushes into its
/// parent). Only IDs and stored values: it crosses from one context to another without
/// either context's objects.
struct PendingEdits: Sendable {
    /// One stored value of an object: an attribute's slot and its value.
    struct SlotValue: Sendable {
        let slot: Int
        let value: SQLValue
    }

    /// A new object, under its temporary ID, with every attribute's value.
    struct Insert: Sendable {
        let id: ObjectID
        let values: [SlotValue]
    }

    /// The attributes an object's edits changed.
    struct Update: Sendable {
        let id: ObjectID
        let values: [SlotValue]
    }

    /// A relationship set to `targets` (at most one for a to-one): a to-one, or the owning
    /// side of a many-to-many; the other sides follow from these.
    struct Link: Sendable {
        let id: ObjectID
        let relationship: Int
        let targets: [ObjectID]
    }

    var inserts: [Insert] = []
    var updates: [Update] = []
    var links: [Link] = []
    var deletes: [ObjectID] = []

    var isEmpty: Bool { inserts.isEmpty && updates.isEmpty && links.isEmpty && deletes.isEmpty }

    /// Every ID named that is not one of `inserts`: these must exist before anything is applied.
    var existingIDs: [ObjectID] {
        let inserted = Set(inserts.map(\.id))
        var seen = Set<ObjectID>()
        var result: [ObjectID] = []
        let named = updates.map(\.id) + links.flatMap { [$0.id] + $0.targets } + deletes
        for id in named where !inserted.contains(id) && seen.insert(id).inserted { result.append(id) }
        return result
    }
}
