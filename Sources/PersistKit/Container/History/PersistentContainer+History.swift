import Foundation

extension PersistentContainer {
    /// The transactions saved after `token` (every one kept, for nil), oldest first: by any
    /// context, container or process, each with its author, context name, time, and the
    /// objects it inserted, updated (with the keys that changed) and deleted.
    ///
    /// ```swift
    /// let transactions = try container.history(after: lastToken)
    /// for change in transactions.flatMap(\.changes) { print(change.kind, change.objectID) }
    /// lastToken = transactions.last?.token ?? lastToken
    /// ```
    ///
    /// A store made by an older PersistKit has history from its first save here on; one opened
    /// read-only that never had history returns none.
    ///
    /// - Throws: ``PersistError`` `.historyExpired` when transactions after `token` were purged
    ///   (read the objects again, then continue from ``currentHistoryToken()``), `.misuse` for
    ///   a token of another store, `.notADatabase` for a damaged record.
    public func history(after token: HistoryToken?) throws -> [HistoryTransaction] {
        try checkOwned(token)
        return try store.historyRecords(after: token?.transactionNumber).map {
            try HistoryTransaction($0, storeIdentifier: store.identifier)
        }
    }

    /// The token of the newest transaction saved so far: `history(after:)` it returns only
    /// what is saved from now on. Nil when the store has no history yet.
    ///
    /// ```swift
    /// var token = try container.currentHistoryToken()
    /// ```
    public func currentHistoryToken() throws -> HistoryToken? {
        try store.newestHistoryID().flatMap { $0 > 0 ? HistoryToken(storeIdentifier: store.identifier, transactionNumber: $0) : nil }
    }

    /// Removes the history of the transactions before `token` (the token's own stays), as a
    /// consumer does once it has processed them. Returns how many were removed.
    ///
    /// Another process that had not yet read the removed transactions catches up by reading
    /// its objects again instead of merging exactly.
    ///
    /// - Throws: ``PersistError`` `.misuse` for a token of another store, `.cannotOpenStore`
    ///   for a read-only store.
    @discardableResult
    public func purgeHistory(before token: HistoryToken) throws -> Int {
        try checkOwned(token)
        return try store.purgeHistory(before: token.transactionNumber, olderThan: nil)
    }

    /// Removes the history of the transactions saved before `date`. Returns how many were
    /// removed. Saves also purge by themselves, as ``StoreDescription/historyRetention`` says.
    ///
    /// ```swift
    /// try container.purgeHistory(before: Date().addingTimeInterval(-86_400))
    /// ```
    ///
    /// - Throws: ``PersistError`` `.cannotOpenStore` for a read-only store.
    @discardableResult
    public func purgeHistory(before date: Date) throws -> Int {
        try store.purgeHistory(before: nil, olderThan: date)
    }

    func checkOwned(_ token: HistoryToken?) throws {
        guard let token, token.storeIdentifier != store.identifier else { return }
        throw PersistError(.misuse, "The history token \(token) belongs to another store (this store is \(store.identifier))",
                           store: store.displayPath)
    }
}

extension PersistentContainer {
    /// Keeps the history after `token` (all of it, for nil) from being purged, by the store's
    /// ``StoreDescription/historyRetention`` or by `purgeHistory`, until `consumer` moves its
    /// hold on or ends it with ``releaseHistory(for:)``. The hold is kept in the store, so it
    /// binds every process that writes the store.
    ///
    /// A consumer that must see every change (a sync engine uploading them, an indexer) holds
    /// the history after the last transaction it processed, and moves the hold on as it goes:
    ///
    /// ```swift
    /// for transaction in try container.history(after: token) { index(transaction) }
    /// token = try container.currentHistoryToken()
    /// try container.retainHistory(after: token, for: "indexer")
    /// ```
    ///
    /// History held so grows until the consumer catches up: release a hold that is no longer needed.
    ///
    /// - Throws: ``PersistError`` `.misuse` for a token of another store, `.cannotOpenStore`
    ///   for a read-only store.
    public func retainHistory(after token: HistoryToken?, for consumer: String) throws {
        try checkOwned(token)
        try store.retainHistory(after: token?.transactionNumber ?? 0, for: consumer)
    }

    /// Ends `consumer`'s hold on the history (``retainHistory(after:for:)``): it is purged as
    /// the retention says again. Nothing happens when `consumer` holds none.
    ///
    /// - Throws: ``PersistError`` `.cannotOpenStore` for a read-only store.
    public func releaseHistory(for consumer: String) throws {
        try store.retainHistory(after: nil, for: consumer)
    }

    /// The consumers holding history (``retainHistory(after:for:)``), each with the token of
    /// the newest transaction it no longer needs (nil: it needs all of them).
    public func historyConsumers() throws -> [String: HistoryToken?] {
        try store.historyConsumers().mapValues { $0 > 0 ? HistoryToken(storeIdentifier: store.identifier, transactionNumber: $0) : nil }
    }
}
