extension StoreSchemaCheck {
    /// Refuses a store holding a trigger or a view: PersistKit makes neither, and a store file
    /// may come from elsewhere (a backup, an attachment). A trigger would run on every save,
    /// changing or copying rows behind the context's back; a view is not the model's either.
    ///
    /// Tolerated, as they change no stored value and no answer: tables the model does not
    /// have (never read), and indexes it does not declare (they speed reads up; an extra
    /// unique or expression index can make a save fail with an SQLite error, which loses
    /// nothing). Functions in anything of the schema may only be innocuous ones
    /// (`trusted_schema=OFF`, see ``SQLiteConnection``).
    ///
    /// - Throws: ``PersistError`` `.incompatibleModel` naming every trigger and view.
    static func checkNoUndeclaredObjects(_ connection: SQLiteConnection, path: String) throws {
        let statement = try connection.prepare(
            "SELECT type, name, tbl_name FROM sqlite_master WHERE type IN ('trigger', 'view') ORDER BY type, name")
        var found: [String] = []
        while try statement.step() {
            let type = statement.string(at: 0), name = statement.string(at: 1)
            found.append(type == "trigger" ? "trigger \(name) on \(statement.string(at: 2))" : "view \(name)")
        }
        guard !found.isEmpty else { return }
        throw PersistError(.incompatibleModel, "\(path) holds what its model does not declare, which PersistKit does not run: "
                           + found.joined(separator: ", ") + "; it was left untouched (drop "
                           + (found.count == 1 ? "it" : "them") + " with the sqlite3 tool if the file is to be trusted)",
                           store: path)
    }
}
