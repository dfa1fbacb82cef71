import Foundation
import Synchronization

/// Finds what a plain key path through relationships reads (`\TaskItem.project?.owner?.name`,
/// `\TaskItem.tags.count`) by reading it on probe objects: each relationship a probe is asked
/// for answers with fresh probes of the destination class, and records the hop.
///
/// Probes made here are registered while a key path is read; the `@Relationship` getter asks
/// ``follow(_:relationship:destination:kind:keyPath:)`` whether the probe it runs on is one of
/// them. Reads are serialized (they are rare: a predicate or sort is built once and reused).
/// A key path can be read several times, each time with other values in the probes (a
/// ``Round``): that is how ``KeyPathTarget`` tells a stored property from a computed one.
enum KeyPathProbe {
    /// What a key path read, hop by hop.
    struct Reading {
        /// The relationships followed from the root, as indexes in each hop's source entity.
        var hops: [(entity: EntityDescription, relationship: Int)] = []
        /// The key path each hop's `@Relationship` getter was given (`\TaskItem.project`).
        var hopKeyPaths: [AnyKeyPath] = []
        /// The probes the last hop answered with (empty without hops).
        var destinations: [ManagedObject] = []
        /// The attribute read at the end (a slot of the last hop's destination, or of the root), if any.
        var attributeSlot: Int?
        /// The entity of the object the attribute was read on (or where the hops end).
        var finalEntity: EntityDescription
        /// What the key path returned.
        var value: Any?
    }

    /// What the probes of one reading hold.
    struct Round {
        /// How many objects a to-many answers with: `\.tags.count` then reads this number.
        var toManyCount = 3
        /// A value for one attribute of one entity's probes (their other slots hold the
        /// entity's initial values).
        var value: (entity: EntityDescription, slot: Int, value: SQLValue)?
    }

    private final class Trace {
        let round: Round
        var hops: [(source: ObjectIdentifier, entity: EntityDescription, relationship: Int, keyPath: AnyKeyPath,
                    destinations: [ManagedObject])] = []
        var probes: [ManagedObject] = []

        init(round: Round) {
            self.round = round
        }
    }

    private struct Entry: @unchecked Sendable {
        // @unchecked Sendable: a trace is used only by the thread reading a key path, which holds `serial`.
        let trace: Trace
    }

    // Recursive: reading a key path may reflect a class whose property initializers build predicates.
    private static let serial = NSRecursiveLock()
    private static let active = Mutex<[ObjectIdentifier: Entry]>([:])

    /// Reads `keyPath` on probes of `rootClass` holding `round`'s values; nil when the class is
    /// not an entity class or the key path does not read relationships and at most one
    /// attribute, in a chain.
    static func read(_ keyPath: AnyKeyPath, rootClass: ManagedObject.Type, round: Round = Round()) -> Reading? {
        guard case .success(let entity) = EntityReflection.entity(for: rootClass) else { return nil }
        serial.lock()
        defer { serial.unlock() }
        let trace = Trace(round: round)
        let root = makeProbe(rootClass, entity, trace)
        defer {
            active.withLock { active in
                for probe in trace.probes { active[ObjectIdentifier(probe)] = nil }
            }
        }
        let value = root[keyPath: keyPath]
        return reading(of: trace, root: root, entity: entity, value: value)
    }

    /// Called by the `@Relationship` getter on a probe: the destination probes to answer with
    /// when the probe belongs to a key path being read, else nil.
    static func follow(_ probe: ManagedObject, relationship index: Int, destination: ManagedObject.Type,
                       kind: RelationshipKind, keyPath: AnyKeyPath) -> [ManagedObject]? {
        guard let entry = active.withLock({ $0[ObjectIdentifier(probe)] }),
              case .success(let entity) = EntityReflection.entity(for: destination) else { return nil }
        let count = kind == .toOne ? 1 : entry.trace.round.toManyCount
        let destinations = (0..<count).map { _ in makeProbe(destination, entity, entry.trace) }
        entry.trace.hops.append((ObjectIdentifier(probe), probe.entity, index, keyPath, destinations))
        return destinations
    }

    private static func makeProbe(_ objectClass: ManagedObject.Type, _ entity: EntityDescription, _ trace: Trace) -> ManagedObject {
        let probe = objectClass.init(entity: entity, insertInto: nil)
        probe.storage = entity.initialStorage
        if let (target, slot, value) = trace.round.value, target === entity, slot < probe.storage.count {
            probe.storage[slot] = value
        }
        KeyPathProbe.register(probe)
        trace.probes.append(probe)
        active.withLock { $0[ObjectIdentifier(probe)] = Entry(trace: trace) }
        return probe
    }

    /// The hops as a chain from the root, and the attribute read at its end.
    private static func reading(of trace: Trace, root: ManagedObject, entity: EntityDescription, value: Any?) -> Reading? {
        var reading = Reading(finalEntity: entity, value: value)
        var current: [ManagedObject] = [root]
        for hop in trace.hops {
            guard current.contains(where: { ObjectIdentifier($0) == hop.source }) else { return nil }
            reading.hops.append((hop.entity, hop.relationship))
            reading.hopKeyPaths.append(hop.keyPath)
            current = hop.destinations
        }
        reading.destinations = trace.hops.isEmpty ? [] : current
        for probe in trace.probes {
            let slot = takeReads(of: probe).attributeSlot
            guard slot != -1 else { continue }
            // An attribute read anywhere but at the end of the chain, or more than one value
            // read, is not a key path we know.
            guard slot >= 0, current.contains(where: { $0 === probe }), reading.attributeSlot == nil else { return nil }
            reading.attributeSlot = slot
            reading.finalEntity = probe.entity
        }
        if reading.attributeSlot == nil, let last = current.first { reading.finalEntity = last.entity }
        return reading
    }
}
