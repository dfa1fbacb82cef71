import CSQLite
import Foundation

/// Removes the files of a store's folder that no row names, and the `.tmp` files of writes a
/// crash cut short: what a killed save (files written, commit never made) or a process killed
/// between a commit and its removals leaves behind.
///
/// Run when a store is opened for writing (a read-only store never changes its files), inside
/// a write transaction: files are written only under SQLite's write lock, so no other
/// connection or process is between writing a file and committing the row that names it.
/// Only names PersistKit gives (a UUID, with or without `.tmp`) are touched; anything else in
/// the folder is left alone.
enum ExternalDataSweep {
    /// Sweeps the folder; returns how many files it removed. Skipped (0) when another
    /// connection keeps the write lock past the busy timeout: the next open sweeps.
    @discardableResult
    static func run(_ connection: SQLiteConnection, model: ManagedObjectModel, folder: ExternalDataFolder) throws -> Int {
        guard folder.exists else { return 0 }
        var removed = 0
        do {
            try connection.inImmediateTransaction {
                let names = folder.fileNames().filter(isOwnFileName)
                if !names.isEmpty {
                    let referenced = try referencedFileNames(connection, model: model)
                    for name in names where !referenced.contains(name) {
                        folder.remove(name)
                        removed += 1
                    }
                }
                // Under the lock: no writer is about to put a file in it.
                folder.removeIfEmpty()
            }
        } catch let error as PersistError where error.sqliteCode?.primary == SQLITE_BUSY {
            return 0
        }
        return removed
    }

    /// The file names every row's references hold (the rows of every entity of a tree).
    static func referencedFileNames(_ connection: SQLiteConnection, model: ManagedObjectModel) throws -> Set<String> {
        var referenced = Set<String>()
        for external in model.externalStorageColumns {
            let column = SQLName.quote(external.column)
            let statement = try connection.prepare("SELECT \(column) FROM main.\(SQLName.quote(external.table)) "
                                                   + "WHERE typeof(\(column)) = 'text'")
            while try statement.step() {
                if let reference = ExternalReference(statement.string(at: 0)) { referenced.insert(reference.fileName) }
            }
        }
        return referenced
    }

    /// A name PersistKit gives: `<UUID>` or `<UUID>.tmp`.
    static func isOwnFileName(_ name: String) -> Bool {
        let base = name.hasSuffix(ExternalDataFolder.temporarySuffix) ? String(name.dropLast(ExternalDataFolder.temporarySuffix.count)) : name
        return UUID(uuidString: base)?.uuidString == base
    }
}
