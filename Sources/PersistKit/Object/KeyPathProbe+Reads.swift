import Synchronization

extension KeyPathProbe {
    /// What a probe object read since its reads were last taken: the one attribute slot (or
    /// ``severalReads``) and the last relationship. Kept here, by probe, so that the objects
    /// of an app (which are never probes) carry none of it.
    final class Reads: @unchecked Sendable {
        // @unchecked Sendable: read and written only by the thread reading a key path on its
        // probe, which holds `KeyPathProbe.serial` (or the probe's `EntityDescription.lock`).
        var attributeSlot = -1
        var relationship = -1
    }

    /// `Reads.attributeSlot` once a probe read more than one attribute, or one attribute twice:
    /// a key path that does is no attribute.
    static var severalReads: Int { -3 }

    /// The probes' reads, by probe. A probe is read under `KeyPathProbe`'s or its entity's
    /// lock; this lock only keeps the table itself whole across those.
    private static let reads = Mutex<[ObjectIdentifier: Reads]>([:])

    /// Marks `object` as a probe, with no reads yet.
    static func register(_ object: ManagedObject) {
        object.lifecycle.insert(.probe)
        reads.withLock { $0[ObjectIdentifier(object)] = Reads() }
    }

    /// Forgets a probe's reads (its `deinit`, or the end of a key path's reading).
    static func unregister(_ object: ManagedObject) {
        reads.withLock { $0[ObjectIdentifier(object)] = nil }
    }

    /// Called by the `@Attribute` getter on a probe: records the slot read.
    static func noteAttributeRead(_ probe: ManagedObject, slot: Int) {
        guard let record = reads.withLock({ $0[ObjectIdentifier(probe)] }) else { return }
        record.attributeSlot = record.attributeSlot == -1 ? slot : severalReads
    }

    /// Called by the `@Relationship` getter on a probe: records the relationship read.
    static func noteRelationshipRead(_ probe: ManagedObject, index: Int) {
        reads.withLock { $0[ObjectIdentifier(probe)] }?.relationship = index
    }

    /// What `probe` read since the last call (-1 for nothing), leaving it with no reads.
    static func takeReads(of probe: ManagedObject) -> (attributeSlot: Int, relationship: Int) {
        guard let record = reads.withLock({ $0[ObjectIdentifier(probe)] }) else { return (-1, -1) }
        defer { record.attributeSlot = -1; record.relationship = -1 }
        return (record.attributeSlot, record.relationship)
    }
}
