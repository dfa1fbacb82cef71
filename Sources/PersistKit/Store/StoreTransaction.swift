import Foundation

/// SQL on a store's writer connection inside a write transaction, for the package's own
/// products (PersistKitSync keeps its tables in the store file, written in the same
/// transactions as the objects they describe). Not public: apps write through contexts.
///
/// A transaction is either one a ``PersistentContainer/performStoreTransaction(author:_:)``
/// opens, or a context's save (``ManagedObjectContext/save(alongside:)``), whose rows are
/// written by then: ``permanentKey(for:)`` tells the keys the save gave its inserted objects.
package struct StoreTransaction {
    let connection: SQLiteConnection
    /// The primary key a save gave the object of a temporary key (nil outside a save).
    let assignedKey: (Int64) -> Int64?

    /// Runs one statement with `values` bound to its `?` parameters.
    ///
    /// - Throws: ``PersistError`` `.sqlite` naming the statement.
    package func execute(_ sql: String, _ values: [SQLValue] = []) throws {
        let statement = try connection.cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(values)
        try statement.run()
    }

    /// The rows one statement returns, each as its columns' values.
    ///
    /// - Throws: ``PersistError`` `.sqlite` naming the statement.
    package func rows(_ sql: String, _ values: [SQLValue] = []) throws -> [[SQLValue]] {
        let statement = try connection.cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(values)
        let count = statement.columnCount
        var rows: [[SQLValue]] = []
        while try statement.step() {
            rows.append((0..<count).map { statement.value(at: $0) })
        }
        return rows
    }

    /// How many rows the last `INSERT`, `UPDATE` or `DELETE` changed.
    package var changes: Int { connection.changes }

    /// The primary key of the object `id` names: its own for a saved object; for an object
    /// inserted by the save this transaction belongs to, the key the save gave it; else nil.
    package func permanentKey(for id: ObjectID) -> Int64? {
        id.isTemporary ? assignedKey(id.key) : id.key
    }

    /// `"name"`, quoted as an SQL identifier.
    package static func quote(_ name: String) -> String { SQLName.quote(name) }

    /// The persistent history table (`id`, `timestamp`, `author`, `context`, `changes`).
    package static let historyTable = StoreHistory.table
}

extension ObjectID {
    /// The ID of the saved object `key` of `entityName` in the store `storeIdentifier`.
    package init(entityName: String, storeIdentifier: String, primaryKey key: Int64) {
        self.init(entityName: entityName, storeIdentifier: storeIdentifier, key: key, isTemporary: false)
    }
}

extension SQLiteStore {
    /// Who takes part in a context's save, by the context's identity (see `save(alongside:)`).
    func setSaveParticipant(_ body: ((StoreTransaction) throws -> Void)?, for origin: Int) {
        saveParticipantsLock.lock()
        saveParticipants[origin] = body
        saveParticipantsLock.unlock()
    }

    /// The participant of a save by `origin`, if one was set.
    func saveParticipant(for origin: Int) -> ((StoreTransaction) throws -> Void)? {
        saveParticipantsLock.lock()
        defer { saveParticipantsLock.unlock() }
        return saveParticipants.isEmpty ? nil : saveParticipants[origin]
    }

    /// Writes a history record of a transaction that changed no object. Call inside `save`'s body.
    func recordEmptyHistory(author: String, _ connection: SQLiteConnection) throws -> Int64 {
        if !historyCursor.hasTable {
            for statement in StoreHistory.createStatements { try connection.execute(statement) }
        }
        let insert = try connection.cachedStatement(StoreHistory.insertSQL)
        defer { insert.reset() }
        try insert.bind([.real(Date().timeIntervalSinceReferenceDate), .text(author), .null, .text("{}")])
        try insert.run()
        return connection.lastInsertRowID
    }
}

extension ManagedObject {
    /// Sets the attribute `name` to a value in its stored form (as a store row holds it),
    /// tracked like any change; false when the entity has no such attribute.
    package func setStoredValue(_ value: SQLValue, forAttribute name: String) -> Bool {
        guard let attribute = entity.attribute(named: name) else { return false }
        setStoredValue(value, at: attribute.index)
        return true
    }

    /// The stored form of the attribute `name`'s value; nil when the entity has no such attribute.
    package func storedValue(forAttribute name: String) -> SQLValue? {
        entity.attribute(named: name).map { storage[$0.index] }
    }
}
