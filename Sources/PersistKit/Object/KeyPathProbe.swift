import Foundation
import Synchronization

/// Finds what a plain key path through relationships reads (`\TaskItem.project?.owner?.name`,
/// `\TaskItem.tags.count`) by reading it on probe objects: each relationship a probe is asked
/// for answers with fresh probes of the destination class, and records the hop.
///
/// Probes made here are registered while a key path is read; the `@Relationship` getter asks
/// ``follow(_:relationship:destination:)`` whether the probe it runs on is one of them. Reads
/// are serialized (they are rare: a predicate or sort is built once and reused).
enum KeyPathProbe {
    /// What a key path read, hop by hop.
    struct Reading {
        /// The relationships followed from the root, as indexes in each hop's source entity.
        var hops: [(entity: EntityDescription, relationship: Int)] = []
        /// The attribute read at the end (a slot of the last hop's destination, or of the root), if any.
        var attributeSlot: Int?
        /// The entity of the object the attribute was read on (or where the hops end).
        var finalEntity: EntityDescription
        /// What the key path returned.
        var value: Any?
    }

    /// How many objects a to-many answers with: `\.tags.count` then reads this number.
    static let toManyProbeCount = 3

    private final class Trace {
        var hops: [(source: ObjectIdentifier, entity: EntityDescription, relationship: Int, destinations: [ManagedObject])] = []
        var probes: [ManagedObject] = []
    }

    private struct Entry: @unchecked Sendable {
        // @unchecked Sendable: a trace is used only by the thread reading a key path, which holds `serial`.
        let trace: Trace
    }

    // Recursive: reading a key path may reflect a class whose property initializers build predicates.
    private static let serial = NSRecursiveLock()
    private static let active = Mutex<[ObjectIdentifier: Entry]>([:])

    /// Reads `keyPath` on probes of `rootClass`; nil when the class is not an entity class or
    /// the key path does not read relationships and attributes in a chain.
    static func read(_ keyPath: AnyKeyPath, rootClass: ManagedObject.Type) -> Reading? {
        guard case .success(let entity) = EntityReflection.entity(for: rootClass) else { return nil }
        serial.lock()
        defer { serial.unlock() }
        let trace = Trace()
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
                       kind: RelationshipKind) -> [ManagedObject]? {
        guard let entry = active.withLock({ $0[ObjectIdentifier(probe)] }),
              case .success(let entity) = EntityReflection.entity(for: destination) else { return nil }
        let count = kind == .toOne ? 1 : toManyProbeCount
        let destinations = (0..<count).map { _ in makeProbe(destination, entity, entry.trace) }
        entry.trace.hops.append((ObjectIdentifier(probe), probe.entity, index, destinations))
        return destinations
    }

    private static func makeProbe(_ objectClass: ManagedObject.Type, _ entity: EntityDescription, _ trace: Trace) -> ManagedObject {
        let probe = objectClass.init(entity: entity, insertInto: nil)
        probe.storage = entity.initialStorage
        probe.isProbe = true
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
            current = hop.destinations
        }
        for probe in trace.probes where probe.probedSlot >= 0 {
            // An attribute read anywhere but at the end of the chain is not a key path we know.
            guard current.contains(where: { $0 === probe }), reading.attributeSlot == nil else { return nil }
            reading.attributeSlot = probe.probedSlot
            reading.finalEntity = probe.entity
        }
        if reading.attributeSlot == nil, let last = current.first { reading.finalEntity = last.entity }
        return reading
    }
}
