import Foundation

/// The store's own key-value table (`_persistkit_metadata`): format version, identifier,
/// the model that wrote it, and each entity's primary-key high-water mark.
enum StoreMetadata {
    static let formatVersionKey = "formatVersion"
    static let identifierKey = "storeIdentifier"
    static let versionHashKey = "versionHash"
    static let modelDocumentKey = "modelDocument"
    static let modelVersionKey = "modelVersion"

    private static var table: String { SQLName.quote(SQLiteStore.metadataTable) }

    static func read(_ connection: SQLiteConnection) throws -> [String: String] {
        let statement = try connection.prepare("SELECT key, value FROM \(table)")
        var result: [String: String] = [:]
        while try statement.step() {
            result[statement.string(at: 0)] = statement.string(at: 1)
        }
        return result
    }

    static func write(_ value: String, for key: String, _ connection: SQLiteConnection) throws {
        try connection.singleInt("INSERT OR REPLACE INTO \(table) (key, value) VALUES (?, ?)", [.text(key), .text(value)])
    }

    static func remove(_ key: String, _ connection: SQLiteConnection) throws {
        try connection.singleInt("DELETE FROM \(table) WHERE key = ?", [.text(key)])
    }

    /// The keys that say which model wrote the store: its hash, document and version.
    static func modelEntries(_ model: ManagedObjectModel) -> [(key: String, value: String)] {
        [(versionHashKey, model.versionHash), (modelDocumentKey, String(decoding: model.document, as: UTF8.self)),
         (modelVersionKey, String(model.version))]
    }

    /// Records `model` as the store's model (after a migration, in its transaction).
    static func recordModel(_ model: ManagedObjectModel, _ connection: SQLiteConnection) throws {
        for (key, value) in modelEntries(model) {
            try write(value, for: key, connection)
        }
    }

    /// Carries an entity's high-water mark over to its new name after a rename. The old key
    /// stays: an entity that takes the old name later still never reuses a key.
    static func copyHighWaterMark(from oldEntity: String, to newEntity: String, _ connection: SQLiteConnection) throws {
        let read = "SELECT value FROM \(table) WHERE key = ?"
        guard let old = try connection.singleText(read, [.text(SchemaSQL.highWaterKey(forEntityNamed: oldEntity))]).flatMap({ Int64($0) })
        else { return }
        let current = try connection.singleText(read, [.text(SchemaSQL.highWaterKey(forEntityNamed: newEntity))]).flatMap { Int64($0) } ?? 0
        try write(String(max(old, current)), for: SchemaSQL.highWaterKey(forEntityNamed: newEntity), connection)
    }
}
