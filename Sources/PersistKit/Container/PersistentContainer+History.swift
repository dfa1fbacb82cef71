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

    private func checkOwned(_ token: HistoryToken?) throws {
        guard let token, token.storeIdentifier != store.identifier else { return }
        throw PersistError(.misuse, "The history token \(token) belongs to another store (this store is \(store.identifier))",
                           store: store.displayPath)
    }
}
