import Foundation

/// Reads a store file without its application: what the `persistkit` tool shows. It opens one
/// read-only connection and never writes; it needs no model, so it works on stores of any
/// model, on stores written before they recorded their model, and on damaged ones (as far as
/// SQLite can read them).
///
/// SQLite may create the store's `-wal` and `-shm` files if they are missing (a reader of a
/// WAL database needs its shared-memory index); the store's own bytes do not change.
package final class StoreInspector {
    /// The path as given.
    package let path: String
    /// The file the path leads to (symbolic links followed).
    package let realPath: String
    let connection: SQLiteConnection

    /// Opens the store at `url` for reading.
    ///
    /// - Throws: ``PersistError`` `.cannotOpenStore` for a missing file or directory,
    ///   `.notADatabase` for a file that is not an SQLite database, `.incompatibleModel` for an
    ///   SQLite database that is not a PersistKit store.
    package init(url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw PersistError(.cannotOpenStore, "\(url.path) does not exist", store: url.path)
        }
        let file = try StoreFile(url: url, readOnly: true)
        path = file.path
        realPath = file.realPath
        connection = try StoreOpener.connect(path: file.realPath, configuration: .init(readOnly: true))
        guard try StoreSchemaCheck.contents(of: connection, path: file.path, realPath: file.realPath) == .store else {
            throw PersistError(.incompatibleModel, "\(file.path) is an empty SQLite database, not a PersistKit store", store: file.path)
        }
    }

    /// What the store's metadata says.
    package struct Metadata: Sendable {
        package var formatVersion: String?
        package var identifier: String?
        /// The model version that wrote the store (nil: not recorded, so version 1).
        package var modelVersion: Int?
        package var versionHash: String?
        /// The model document the store was written with (nil: written before stores recorded it).
        package var modelDocument: Data?
        /// Each entity's highest primary key ever given, by entity name.
        package var highWaterMarks: [String: Int64] = [:]
    }

    package func metadata() throws -> Metadata {
        let entries = try StoreMetadata.read(connection)
        var metadata = Metadata(formatVersion: entries[StoreMetadata.formatVersionKey], identifier: entries[StoreMetadata.identifierKey],
                                modelVersion: entries[StoreMetadata.modelVersionKey].flatMap { Int($0) },
                                versionHash: entries[StoreMetadata.versionHashKey],
                                modelDocument: entries[StoreMetadata.modelDocumentKey].map { Data($0.utf8) })
        let prefix = SchemaSQL.highWaterKey(forEntityNamed: "")
        for (key, value) in entries where key.hasPrefix(prefix) {
            if let mark = Int64(value) { metadata.highWaterMarks[String(key.dropFirst(prefix.count))] = mark }
        }
        return metadata
    }

    /// The model the store was written with, from its recorded document; nil for a store
    /// written before stores recorded it.
    ///
    /// - Throws: ``PersistError`` `.invalidModel` for a recorded document that cannot be read.
    package func recordedModel() throws -> ManagedObjectModel? {
        let metadata = try metadata()
        guard let document = metadata.modelDocument else { return nil }
        do {
            return try ManagedObjectModel(document: document, version: metadata.modelVersion ?? 1)
        } catch var error as PersistError {
            error.message = "\(path) records a model document that cannot be read: " + error.message
            throw error
        }
    }

    /// A table of the store with its row count.
    package struct Table: Sendable, Equatable {
        package let name: String
        package let rows: Int
    }

    /// The store's tables other than PersistKit's own (entities' tables and join tables), by name.
    package func tables() throws -> [Table] {
        try names("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                  + "AND name NOT IN ('\(SQLiteStore.metadataTable)', '\(StoreHistory.table)') ORDER BY name")
            .map { Table(name: $0, rows: try rowCount($0)) }
    }

    package func rowCount(_ table: String) throws -> Int {
        Int(try connection.singleInt("SELECT count(*) FROM \(SQLName.quote(table))") ?? 0)
    }

    /// An index of the store: its table, columns in order, and whether it is unique.
    package struct Index: Sendable, Equatable {
        package let name: String
        package let table: String
        package let columns: [String]
        package let isUnique: Bool
    }

    /// Every index SQLite keeps on the store's tables (their primary keys' own excepted), by table and name.
    package func indexes() throws -> [Index] {
        let statement = try connection.prepare("""
            SELECT m.tbl_name, il.name, il."unique", group_concat(ii.name, ',')
            FROM sqlite_master AS m, pragma_index_list(m.name) AS il, pragma_index_info(il.name) AS ii
            WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND il.origin != 'pk'
            GROUP BY m.tbl_name, il.name ORDER BY m.tbl_name, il.name
            """)
        var indexes: [Index] = []
        while try statement.step() {
            indexes.append(Index(name: statement.string(at: 1), table: statement.string(at: 0),
                                 columns: statement.string(at: 3).split(separator: ",").map(String.init),
                                 isUnique: statement.int64(at: 2) != 0))
        }
        return indexes
    }

    /// The persistent history's extent.
    package struct HistoryExtent: Sendable, Equatable {
        package let transactions: Int
        /// The oldest and newest transaction kept (nil when none is).
        package let oldest: (number: Int64, date: Date)?
        package let newest: (number: Int64, date: Date)?

        package static func == (a: HistoryExtent, b: HistoryExtent) -> Bool {
            a.transactions == b.transactions && a.oldest?.number == b.oldest?.number && a.newest?.number == b.newest?.number
        }
    }

    package func historyExtent() throws -> HistoryExtent {
        let table = SQLName.quote(StoreHistory.table)
        guard try connection.singleInt(StoreHistory.hasTableSQL) == 1 else { return HistoryExtent(transactions: 0, oldest: nil, newest: nil) }
        func end(_ order: String) throws -> (Int64, Date)? {
            let statement = try connection.prepare("SELECT id, timestamp FROM \(table) ORDER BY id \(order) LIMIT 1")
            guard try statement.step() else { return nil }
            return (statement.int64(at: 0), Date(timeIntervalSinceReferenceDate: statement.double(at: 1)))
        }
        return HistoryExtent(transactions: try rowCount(StoreHistory.table), oldest: try end("ASC"), newest: try end("DESC"))
    }

    /// The sizes of the store file and of its write-ahead log (nil when there is none), in bytes.
    package var fileSizes: (store: Int64, wal: Int64?) {
        func size(_ path: String) -> Int64? {
            (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
        }
        return (size(realPath) ?? 0, size(realPath + "-wal"))
    }

    /// The first column of every row of `sql`, as text.
    func names(_ sql: String, _ values: [SQLValue] = []) throws -> [String] {
        let statement = try connection.prepare(sql)
        try statement.bind(values)
        var names: [String] = []
        while try statement.step() { names.append(statement.string(at: 0)) }
        return names
    }
}
