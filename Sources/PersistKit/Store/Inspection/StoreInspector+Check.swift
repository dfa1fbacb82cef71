import Foundation

/// What `persistkit check` looks for: damage SQLite can see, references to rows that do not
/// exist, a schema that is not the recorded model's, and values of the wrong storage class.
/// Each problem is one line of text, naming the table, row and column where it can.
extension StoreInspector {
    /// How far a long check has got: the table being checked, and how many rows of all the
    /// tables are done.
    package typealias Progress = (_ table: String, _ rowsDone: Int, _ totalRows: Int) -> Void

    /// SQLite's `PRAGMA integrity_check`, one table (and its indexes) at a time so that it can
    /// report progress, then the free-page list's size against the file's.
    package func integrityProblems(progress: Progress? = nil) throws -> [String] {
        let tables = try names("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        let counts = try tables.map { try rowCount($0) }
        let total = counts.reduce(0, +)
        var done = 0
        var problems: [String] = []
        for (table, count) in zip(tables, counts) {
            progress?(table, done, total)
            for line in try names("PRAGMA integrity_check(\(SQLName.quote(table)))") where line != "ok" {
                problems.append("damaged: \(line)")
            }
            done += count
        }
        progress?("", total, total)
        let pages = try connection.singleInt("PRAGMA page_count") ?? 0
        let free = try connection.singleInt("PRAGMA freelist_count") ?? 0
        if free > pages { problems.append("damaged: the free-page list has \(free) pages, more than the file's \(pages)") }
        return problems
    }

    /// Rows whose foreign key names a row that does not exist (`PRAGMA foreign_key_check`):
    /// a to-one pointing nowhere, or a to-many link to a missing object.
    package func orphanedReferences() throws -> [String] {
        let statement = try connection.prepare("PRAGMA foreign_key_check")
        var problems: [String] = []
        while try statement.step() {
            let table = statement.string(at: 0), parent = statement.string(at: 2)
            let foreignKey = statement.int64(at: 3)
            let column = try names("SELECT \"from\" FROM pragma_foreign_key_list(?) WHERE id = ?", [.text(table), .integer(foreignKey)]).first
            if statement.isNull(at: 1) {
                problems.append("orphaned reference: a link of \(table) names a \(parent) that does not exist"
                                + (column.map { " (\($0))" } ?? ""))
            } else {
                let row = statement.int64(at: 1)
                let value = try column.flatMap { column in
                    try connection.singleInt("SELECT \(SQLName.quote(column)) FROM \(SQLName.quote(table)) WHERE rowid = ?", [.integer(row)])
                }
                problems.append("orphaned reference: \(table) \(row) refers to \(parent) \(value.map(String.init) ?? "?"), which does not exist"
                                + (column.map { " (\($0))" } ?? ""))
            }
        }
        return problems
    }

    /// Where the stored schema is not `model`'s: a table, column or index missing, a table or
    /// column the model does not have.
    package func schemaProblems(against model: ManagedObjectModel) throws -> [String] {
        var problems: [String] = []
        var expectedTables: Set<String> = [SQLiteStore.metadataTable, StoreHistory.table]
        var expectedIndexes: [IndexDefinition] = []
        for (entity, columns) in SchemaSQL.tables(of: model) {
            expectedTables.insert(entity.name)
            problems += try columnProblems(table: entity.name, expected: columns, what: "entity \(entity.name)")
            if entity.inheritance != nil { expectedIndexes.append(SchemaSQL.entityIndex(for: entity)) }
        }
        for entity in model.entities {
            expectedIndexes += SchemaSQL.foreignKeyIndexes(for: entity) + SchemaSQL.uniqueIndexes(for: entity)
            for relationship in entity.relationships {
                guard case .joinTable(let table, isOwner: true) = relationship.storage else { continue }
                expectedTables.insert(table.name)
                problems += try columnProblems(table: table.name,
                                               expected: [JoinTable.ownerColumn, JoinTable.destinationColumn, JoinTable.positionColumn],
                                               what: "the join table of \(entity.name).\(relationship.name)")
                expectedIndexes.append(SchemaSQL.index(for: table))
            }
        }
        for table in try tables() where !expectedTables.contains(table.name) {
            problems.append("schema: the table \(table.name) is not in the recorded model")
        }
        let indexes = Dictionary(try indexes().map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for index in expectedIndexes {
            guard let found = indexes[index.name] else {
                problems.append("schema: the \(index.isUnique ? "unique " : "")index \(index.name) on \(index.table)("
                                + index.columns.joined(separator: ", ") + ") is missing")
                continue
            }
            if found.columns != index.columns || found.isUnique != index.isUnique {
                problems.append("schema: the index \(index.name) is on \(found.table)(\(found.columns.joined(separator: ", ")))"
                                + (found.isUnique ? ", unique" : "") + ", not (\(index.columns.joined(separator: ", ")))"
                                + (index.isUnique ? ", unique" : ""))
            }
        }
        return problems
    }

    private func columnProblems(table: String, expected: [String], what: String) throws -> [String] {
        let columns = try names("SELECT name FROM pragma_table_info(?)", [.text(table)])
        guard !columns.isEmpty else { return ["schema: the table \(table) of \(what) is missing"] }
        return expected.filter { !columns.contains($0) }.map { "schema: the table \(table) has no column \($0)" }
            + columns.filter { !expected.contains($0) }.map { "schema: the table \(table) has a column \($0) the recorded model does not have" }
    }

    /// Values whose storage class is not their attribute's (text in an integer attribute, a
    /// NULL in a required one): a fetch of such a row fails. Counted per column, with the first row.
    package func valueProblems(against model: ManagedObjectModel, progress: Progress? = nil) throws -> [String] {
        // (A table the schema check found missing counts no rows, and has no values to check.)
        let total = SchemaSQL.tables(of: model).reduce(0) { $0 + ((try? rowCount($1.entity.name)) ?? 0) }
        var done = 0
        var problems: [String] = []
        for entity in model.entities {
            progress?(entity.name, done, total)
            let existing = Set(try names("SELECT name FROM pragma_table_info(?)", [.text(entity.tableName)]))
            for attribute in entity.attributes where existing.contains(attribute.name) {
                let classes: String
                switch attribute.type.columnType {
                case "INTEGER": classes = "'integer'"
                case "REAL": classes = "'real', 'integer'"
                case "TEXT": classes = "'text'"
                default: classes = attribute.allowsExternalStorage ? "'blob', 'text'" : "'blob'"   // text: a file's reference
                }
                let column = SQLName.quote(attribute.name)
                let condition = "typeof(\(column)) NOT IN (\(classes)\(attribute.isOptional ? ", 'null'" : ""))"
                let statement = try connection.prepare("SELECT count(*), min(\(SQLName.quote(SchemaSQL.primaryKey))) FROM "
                                                       + "\(SchemaSQL.source(of: entity)) WHERE \(condition)")
                guard try statement.step(), statement.int64(at: 0) > 0 else { continue }
                let count = statement.int64(at: 0)
                problems.append("value: \(entity.name).\(attribute.name) holds \(count) \(count == 1 ? "value" : "values") that "
                                + "\(attribute.type.rawValue)\(attribute.isOptional ? "?" : "") cannot read (the first in \(entity.name) "
                                + "\(statement.int64(at: 1)))")
            }
            if entity.tableName == entity.name { done += (try? rowCount(entity.name)) ?? 0 }
        }
        problems += try externalDataProblems(against: model)
        progress?("", total, total)
        return problems
    }
}
