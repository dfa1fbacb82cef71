/// Which file references a write transaction put into rows and took out of them, recorded by
/// SQLite itself: temporary triggers on the writer connection append to a temporary table.
///
/// Every way a row loses its reference is caught, whoever deletes or changes it: a context's
/// save, a batch delete and its cascades, a batch update, an upsert, a settled conflict. The
/// log is part of the transaction: a rollback forgets it with the rest. After the commit the
/// store reads it (``drain(_:)``) and removes the files no row names any more. Temporary
/// triggers live in the connection only, so the schema in the file, and other processes, are
/// untouched.
enum ExternalDataLog {
    static let table = "_persistkit_external_changes"

    /// What one transaction did to references, in order: each file name with whether the
    /// last change named it (true) or let it go (false).
    struct Changes {
        var last: [String: Bool] = [:]

        /// The files no row names after the transaction: let go last, or written (`written`)
        /// and never named (a row the save did not write after all: a merged insert, a change
        /// settled in the store's favour).
        func unreferenced(written: [ExternalReference]) -> [String] {
            var names = last.compactMap { $0.value ? nil : $0.key }
            for reference in written where last[reference.fileName] == nil { names.append(reference.fileName) }
            return names
        }
    }

    /// Makes the log table and the triggers of every externally stored attribute of `model`
    /// on the writer connection: one set per column (an inheritance tree's attribute is one
    /// column of the tree's table, whichever of its entities the rows are).
    static func install(on connection: SQLiteConnection, model: ManagedObjectModel) throws {
        // Unqualified: a trigger body names no database (SQLite looks in temp first).
        let log = SQLName.quote(table)
        try connection.execute("CREATE TEMP TABLE IF NOT EXISTS \(SQLName.quote(table)) (reference TEXT NOT NULL, named INTEGER NOT NULL)")
        for external in model.externalStorageColumns {
            let target = "main." + SQLName.quote(external.table)
            let column = SQLName.quote(external.column)
            let prefix = "_persistkit_external_\(external.table)_\(external.column)_"
            let isReference = { (row: String) in "typeof(\(row).\(column)) = 'text'" }
            try connection.execute("""
                CREATE TEMP TRIGGER IF NOT EXISTS \(SQLName.quote(prefix + "insert")) AFTER INSERT ON \(target) \
                WHEN \(isReference("NEW")) BEGIN INSERT INTO \(log) VALUES (NEW.\(column), 1); END
                """)
            try connection.execute("""
                CREATE TEMP TRIGGER IF NOT EXISTS \(SQLName.quote(prefix + "update")) AFTER UPDATE OF \(column) ON \(target) \
                WHEN OLD.\(column) IS NOT NEW.\(column) BEGIN \
                INSERT INTO \(log) SELECT OLD.\(column), 0 WHERE \(isReference("OLD")); \
                INSERT INTO \(log) SELECT NEW.\(column), 1 WHERE \(isReference("NEW")); END
                """)
            try connection.execute("""
                CREATE TEMP TRIGGER IF NOT EXISTS \(SQLName.quote(prefix + "delete")) AFTER DELETE ON \(target) \
                WHEN \(isReference("OLD")) BEGIN INSERT INTO \(log) VALUES (OLD.\(column), 0); END
                """)
        }
    }

    /// Reads and empties the log of the transaction that just committed.
    static func drain(_ connection: SQLiteConnection) throws -> Changes {
        var changes = Changes()
        var logged = false
        let statement = try connection.cachedStatement("SELECT reference, named FROM temp.\(SQLName.quote(table)) ORDER BY rowid")
        defer { statement.reset() }
        while try statement.step() {
            logged = true
            // A reference a row held is checked like every other: only a well-formed one names a file.
            guard let reference = ExternalReference(statement.string(at: 0)) else { continue }
            changes.last[reference.fileName] = statement.int64(at: 1) != 0
        }
        statement.reset()
        if logged { try connection.execute("DELETE FROM temp.\(SQLName.quote(table))") }
        return changes
    }
}
