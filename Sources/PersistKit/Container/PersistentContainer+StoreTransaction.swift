import Foundation

extension PersistentContainer {
    /// Runs `body` in one `BEGIN IMMEDIATE` transaction on the store's writer (waiting for a
    /// save in progress, as saves wait for it), committing if it returns. The transaction is
    /// recorded in the persistent history as one that changed no object, under `author`, so
    /// that other processes see a known commit rather than refreshing everything they hold.
    ///
    /// - Throws: ``PersistError`` `.cannotOpenStore` for a read-only store, whatever `body`
    ///   throws (after rolling back).
    package func performStoreTransaction<T>(author: String, _ body: (StoreTransaction) throws -> T) throws -> T {
        var result: T?
        _ = try store.save(origin: 0) { connection in
            result = try body(StoreTransaction(connection: connection, assignedKey: { _ in nil }))
            var change = StoreChange(sequence: 0, origin: 0)
            change.historyID = try store.recordEmptyHistory(author: author, connection)
            return change
        }
        guard let result else { throw PersistError(.misuse, "A store transaction ended without a result") }
        return result
    }

    /// Runs `body` with a reader of the store in one read transaction (one committed snapshot).
    package func readStore<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try store.withSnapshot { connection in try body(StoreTransaction(connection: connection, assignedKey: { _ in nil })) }
    }
}
