import Foundation
@testable import PersistKit

/// Checks that a context tells its observers of every change to its objects' values: between
/// two checks, each registered object whose stored values changed must have been named in a
/// notice with those keys (or a notice had observers refetch everything).
///
/// It keeps object IDs and values, never objects, so it changes nothing about what a context
/// holds or lets go (that matters: a context may read an object again, with newer values).
final class NoticeLedger {
    private var snapshot: [ObjectID: ContiguousArray<SQLValue>] = [:]
    private var announced: [ObjectID: Set<String>] = [:]
    private var inserted: Set<ObjectID> = []
    private var invalidated = false
    private var token: ObservationToken?

    init(_ context: ManagedObjectContext) {
        token = context.addObserver { [unowned self] notice in
            if notice.invalidatedAll { invalidated = true }
            for object in notice.inserted { inserted.insert(object.objectID) }
            for (object, keys) in notice.updated { announced[object.objectID, default: []].formUnion(keys.names) }
        }
    }

    deinit { token?.cancel() }

    /// The unannounced changes since the last call, described; then takes a new snapshot.
    func unannouncedChanges(in context: ManagedObjectContext) -> [String] {
        var problems: [String] = []
        let objects = context.registeredObjects.filter { !$0.isInserted && !$0.isDeleted }
        if !invalidated {
            for object in objects where !inserted.contains(object.objectID) {
                guard let before = snapshot[object.objectID] else { continue }
                let told = announced[object.objectID] ?? []
                for slot in before.indices where slot < object.storage.count && !SQLValue.identical(before[slot], object.storage[slot]) {
                    // A reference to an unsaved object (its temporary key, negated) takes the
                    // saved key: the same object.
                    if case .integer(let reference) = before[slot], reference < 0 { continue }
                    let key = object.entity.keyName(forSlot: slot) ?? "slot \(slot)"
                    if !told.contains(key) {
                        problems.append("\(object.entity.name)#\(object.objectID.key).\(key): \(before[slot]) -> \(object.storage[slot]) untold")
                    }
                }
            }
        }
        snapshot = Dictionary(objects.map { ($0.objectID, $0.storage) }, uniquingKeysWith: { first, _ in first })
        announced = [:]
        inserted = []
        invalidated = false
        return problems.sorted()
    }
}
