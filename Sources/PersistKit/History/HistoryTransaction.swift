import Foundation

/// One saved transaction in a store's persistent history: who saved, when, and which objects
/// it inserted, updated (with the keys that changed) and deleted.
///
/// ```swift
/// for transaction in try container.history(after: token) where transaction.author != "sync" {
///     for change in transaction.changes { upload(change) }
///     token = transaction.token
/// }
/// ```
public struct HistoryTransaction: Sendable, Hashable {
    /// The transaction's place in the history: pass it to `history(after:)` to continue.
    public let token: HistoryToken
    /// When the save committed (the saving machine's clock).
    public let timestamp: Date
    /// The saving context's ``ManagedObjectContext/transactionAuthor``.
    public let author: String?
    /// The saving context's ``ManagedObjectContext/name``.
    public let contextName: String?
    /// The objects changed: inserts, then updates, then deletes; by entity name, then key.
    public let changes: [HistoryChange]

    /// A stored record, with object IDs of the store `storeIdentifier`.
    init(_ record: StoreHistory.Record, storeIdentifier: String) throws {
        token = HistoryToken(storeIdentifier: storeIdentifier, transactionNumber: record.id)
        timestamp = record.timestamp
        author = record.author
        contextName = record.contextName
        let recorded = try record.changes()
        // One scope per entity: interning takes the registry's lock.
        func scope(_ entity: String) -> ObjectID.Scope {
            ObjectID.Scope(entityName: entity, storeIdentifier: storeIdentifier)
        }
        var changes: [HistoryChange] = []
        for (entity, keys) in recorded.inserted.sorted(by: { $0.key < $1.key }) {
            let scope = scope(entity)
            changes += keys.map { HistoryChange(objectID: scope.savedID($0), kind: .insert, changedKeys: []) }
        }
        for (entity, groups) in recorded.updated.sorted(by: { $0.key < $1.key }) {
            let scope = scope(entity)
            let updates = groups.flatMap { group in group.objects.map { (key: $0, names: group.keyNames) } }
            changes += updates.sorted { $0.key < $1.key }.map { HistoryChange(objectID: scope.savedID($0.key), kind: .update, changedKeys: $0.names) }
        }
        for (entity, keys) in recorded.deleted.sorted(by: { $0.key < $1.key }) {
            let scope = scope(entity)
            changes += keys.map { HistoryChange(objectID: scope.savedID($0), kind: .delete, changedKeys: []) }
        }
        self.changes = changes
    }
}
