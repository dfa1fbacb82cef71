import Foundation

/// Carries out one stage's ``SchemaMapping`` in SQL, inside the migration's transaction (with
/// foreign-key enforcement off).
///
/// SQLite's `ALTER TABLE` where it can (a table renamed, columns renamed, added, dropped), the
/// copy-table procedure where it cannot (a column becoming required or optional, a foreign key
/// dropped): a new table under a temporary name, the rows copied, the old table dropped, the
/// new one renamed (https://www.sqlite.org/lang_altertable.html). Indexes are made afterwards,
/// a unique one only after checking the rows it would hold.
final class SchemaMigrator {
    /// Reports a step of the stage: what it does, rows copied so far, rows to copy in all.
    typealias Progress = (_ step: String, _ rowsDone: Int, _ totalRows: Int) -> Void

    let connection: SQLiteConnection
    let mapping: SchemaMapping
    let store: StoreIdentity
    private let progress: Progress?
    private var temporaryNames = 0
    /// Where each old table is now, by its name in the old model (tables move to temporary
    /// names while renames go on).
    private var currentName: [String: String] = [:]
    private var rowsDone = 0
    private var totalRows = 0
    /// How many rows a copy moves per statement, between progress reports.
    static let copyChunk = 50_000

    init(connection: SQLiteConnection, mapping: SchemaMapping, store: StoreIdentity, progress: Progress?) {
        self.connection = connection
        self.mapping = mapping
        self.store = store
        self.progress = progress
    }

    /// What happens to one entity table.
    enum TableAction {
        case create
        case alter(AlterSteps)
        case rebuild
    }

    /// The `ALTER TABLE` statements that take an old table to its new columns.
    struct AlterSteps {
        var renames: [(from: String, to: String)] = []
        var drops: [String] = []
        var adds: [(column: StoredColumn, literal: String, value: SQLValue)] = []
        var isEmpty: Bool { renames.isEmpty && drops.isEmpty && adds.isEmpty }
    }

    /// Runs the stage's schema mapping.
    func run() throws {
        // A statement a stage's code left part-way through would keep a table it reads from
        // being dropped: the cache goes (statements are prepared again as needed).
        connection.clearStatementCache()
        let actions = try mapping.entityTables.map { try action(for: $0) }
        totalRows = try rowsToCopy(actions)
        report("dropping removed tables")
        for name in mapping.droppedJoinTables + mapping.droppedEntityTables {
            try connection.execute("DROP TABLE \(SQLName.quote(name))")
        }
        try renameTables()
        for (table, action) in zip(mapping.entityTables, actions) {
            try migrate(table, action)
        }
        for join in mapping.joinTables {
            try migrate(join)
        }
        try moveExternalValues()
        try makeIndexes()
        for table in mapping.entityTables {
            if let source = table.source, source.name != table.entity.name {
                try StoreMetadata.copyHighWaterMark(from: source.name, to: table.entity.name, connection)
            }
        }
    }

    func report(_ step: String) {
        progress?(step, rowsDone, totalRows)
    }

    private func temporaryName() -> String {
        temporaryNames += 1
        return "_persistkit_migrating_\(temporaryNames)"
    }

    // MARK: Deciding

    /// Whether an entity's table is made, altered in place, or copied into a new one.
    func action(for table: SchemaMapping.EntityTable) throws -> TableAction {
        guard let source = table.source else { return .create }
        var steps = AlterSteps()
        var used = Set<String>()
        let sourceColumns = SchemaSQL.tableColumns(of: source)
        switch (source.inheritance != nil, table.entity.inheritance != nil) {
        case (false, true): return .rebuild   // a plain entity becomes a tree's root: every row gets `_entity`
        case (true, false): steps.drops.append(EntityInheritance.entityColumn)
        default: break
        }
        for (column, origin) in zip(SchemaSQL.tableColumns(of: table.entity), table.columns) {
            switch origin {
            case .column(let name):
                guard let old = sourceColumns.first(where: { $0.name == name }) else {
                    throw PersistError(.misuse, "The migration of \(table.entity.name) reads a column \(name) its old table does not have",
                                       entity: table.entity.name, attribute: column.name)
                }
                used.insert(name)
                guard old.isOptional == column.isOptional, old.type.declaredColumnType == column.type.declaredColumnType,
                      old.isForeignKey == column.isForeignKey else { return .rebuild }
                if name != column.name { steps.renames.append((name, column.name)) }
            case .columnOrValue:
                return .rebuild
            case .value(let value):
                if value.isNull && !column.isOptional { return .rebuild }
                // SQLite reads a whole real `DEFAULT` (0.0) of a column without affinity back
                // as an integer for the rows it had: the copy binds the value exactly.
                if case .real(let real) = value, real.rounded() == real { return .rebuild }
                guard let literal = try SQLiteLiteral.literal(for: value, connection) else { return .rebuild }
                steps.adds.append((column, literal, value))
            }
        }
        for old in sourceColumns where !used.contains(old.name) {
            // SQLite cannot drop a column a foreign key constraint names.
            if old.isForeignKey { return .rebuild }
            steps.drops.append(old.name)
        }
        // Renamed and added columns must not meet a name still there (any case, as SQLite compares).
        var names = Set(sourceColumns.map { $0.name.lowercased() })
        for rename in steps.renames {
            guard !names.contains(rename.to.lowercased()) else { return .rebuild }
            names.remove(rename.from.lowercased())
            names.insert(rename.to.lowercased())
        }
        steps.drops.forEach { names.remove($0.lowercased()) }
        for add in steps.adds where !names.insert(add.column.name.lowercased()).inserted {
            return .rebuild
        }
        return .alter(steps)
    }

    /// The rows that copies will move: the tables rebuilt, and join tables whose ends swap.
    private func rowsToCopy(_ actions: [TableAction]) throws -> Int {
        var total = 0
        for (table, action) in zip(mapping.entityTables, actions) {
            if case .rebuild = action, let source = table.source { total += try count(source.name) }
        }
        for join in mapping.joinTables where join.swapsEnds {
            if let source = join.source { total += try count(source.name) }
        }
        return total
    }

    private func count(_ table: String) throws -> Int {
        Int(try connection.singleInt("SELECT count(*) FROM \(SQLName.quote(table))") ?? 0)
    }

    // MARK: Renaming

    /// Moves every table whose name changes (and every join table to copy with its ends
    /// swapped) to a temporary name, then the renamed ones to their new names: renames that
    /// trade names, or differ only in case, work all the same. Renaming a table also renames
    /// it in the other tables' foreign keys.
    private func renameTables() throws {
        var moves: [(old: String, new: String?)] = []
        for table in mapping.entityTables {
            if let source = table.source, source.name != table.entity.name { moves.append((source.name, table.entity.name)) }
        }
        for join in mapping.joinTables {
            guard let source = join.source else { continue }
            if join.swapsEnds {
                moves.append((source.name, nil))
            } else if source.name != join.table.name {
                moves.append((source.name, join.table.name))
            }
        }
        guard !moves.isEmpty else { return }
        report("renaming tables")
        for move in moves {
            let temporary = temporaryName()
            try connection.execute("ALTER TABLE \(SQLName.quote(move.old)) RENAME TO \(SQLName.quote(temporary))")
            currentName[move.old] = temporary
        }
        for move in moves {
            guard let new = move.new, let temporary = currentName[move.old] else { continue }
            try connection.execute("ALTER TABLE \(SQLName.quote(temporary)) RENAME TO \(SQLName.quote(new))")
            currentName[move.old] = new
        }
    }

    // MARK: Entity tables

    private func migrate(_ table: SchemaMapping.EntityTable, _ action: TableAction) throws {
        let entity = table.entity
        if let tree = table.tree, tree.hadEntityColumn { try relabelRows(of: entity, tree) }
        switch action {
        case .create:
            report("creating \(entity.name)")
            try connection.execute(SchemaSQL.createTable(for: entity))
        case .alter(let steps):
            if !steps.isEmpty {
                report("altering \(entity.name)")
                try alter(entity, steps)
            }
        case .rebuild:
            report("copying \(entity.name)")
            try rebuild(table)
        }
        if let tree = table.tree { try fillRows(of: entity, tree) }
    }

    private func alter(_ entity: EntityDescription, _ steps: AlterSteps) throws {
        let name = SQLName.quote(entity.name)
        for rename in steps.renames {
            try connection.execute("ALTER TABLE \(name) RENAME COLUMN \(SQLName.quote(rename.from)) TO \(SQLName.quote(rename.to))")
        }
        // An index on a column stops SQLite dropping it: indexes the new model has no use for go first.
        try dropStaleIndexes(on: entity.name, expected: expectedIndexes(of: entity))
        for column in steps.drops {
            try connection.execute("ALTER TABLE \(name) DROP COLUMN \(SQLName.quote(column))")
        }
        for add in steps.adds {
            let definition = SchemaSQL.columnDefinition(add.column, of: entity)
            try connection.execute("ALTER TABLE \(name) ADD COLUMN \(definition)" + (add.value.isNull ? "" : " DEFAULT \(add.literal)"))
            let stored = try connection.prepare("SELECT \(SQLName.quote(add.column.name)) FROM \(name) LIMIT 1")
            if try stored.step(), !SQLValue.identical(stored.value(at: 0), add.value) {
                throw PersistError(.misuse, "SQLite stored the default of \(entity.name).\(add.column.name) as \(stored.value(at: 0)), not \(add.value)",
                                   entity: entity.name, attribute: add.column.name)
            }
        }
    }

    /// The copy-table procedure: the new table under a temporary name, the rows copied in
    /// chunks (the progress reports count them), the old table dropped, the new one renamed.
    private func rebuild(_ table: SchemaMapping.EntityTable) throws {
        let entity = table.entity
        let old = SQLName.quote(entity.name)
        try checkRequiredValues(table)
        let temporary = temporaryName()
        try connection.execute(SchemaSQL.createTable(for: entity, named: temporary))
        try copyRows(table, into: temporary)
        try connection.execute("DROP TABLE \(old)")
        try connection.execute("ALTER TABLE \(SQLName.quote(temporary)) RENAME TO \(old)")
    }

    /// Copies every row of the table into `temporary`, in primary-key order, a chunk per
    /// statement: each column from its source (an old column, a value, or both).
    private func copyRows(_ table: SchemaMapping.EntityTable, into temporary: String) throws {
        var expressions: [String] = []
        var values: [SQLValue] = []
        var targets = SchemaSQL.tableColumns(of: table.entity).map(\.name)
        for origin in table.columns {
            switch origin {
            case .column(let name):
                expressions.append(SQLName.quote(name))
            case .columnOrValue(let name, let value):
                expressions.append("coalesce(\(SQLName.quote(name)), ?)")
                values.append(value)
            case .value(let value):
                expressions.append("?")
                values.append(value)
            }
        }
        if table.entity.inheritance != nil {
            // A tree's table: each row's entity, or (a plain entity become the tree's root) its name.
            targets.append(EntityInheritance.entityColumn)
            if table.source?.inheritance != nil {
                expressions.append(SQLName.quote(EntityInheritance.entityColumn))
            } else {
                expressions.append("?")
                values.append(.text(table.entity.name))
            }
        }
        let primaryKey = SQLName.quote(SchemaSQL.primaryKey), version = SQLName.quote(SchemaSQL.version)
        let columns = ([SchemaSQL.primaryKey, SchemaSQL.version] + targets).map(SQLName.quote).joined(separator: ", ")
        let copy = try connection.prepare("INSERT INTO \(SQLName.quote(temporary)) (\(columns)) SELECT \(primaryKey), \(version)"
            + expressions.map { ", " + $0 }.joined() + " FROM \(SQLName.quote(table.entity.name)) WHERE \(primaryKey) > ? "
            + "ORDER BY \(primaryKey) LIMIT \(Self.copyChunk)")
        var last = Int64.min
        while true {
            copy.reset()
            try copy.bind(values + [.integer(last)])
            try copy.run()
            let copied = connection.changes
            guard copied > 0 else { break }
            rowsDone += copied
            report("copying \(table.entity.name)")
            last = try connection.singleInt("SELECT max(\(primaryKey)) FROM \(SQLName.quote(temporary))") ?? last
            if copied < Self.copyChunk { break }
        }
    }

    /// A column becoming required must have a value in every row: an old column's NULLs
    /// without a default to take their place, or a new column without a default in a table
    /// that has rows, fail the migration naming the objects.
    private func checkRequiredValues(_ table: SchemaMapping.EntityTable) throws {
        let entity = table.entity
        for (column, origin) in zip(SchemaSQL.tableColumns(of: entity), table.columns) where !column.isOptional {
            let condition: String
            switch origin {
            case .column(let name): condition = "\(SQLName.quote(name)) IS NULL"
            case .value(let value) where value.isNull: condition = "1"
            default: continue
            }
            let statement = try connection.prepare("SELECT \(SQLName.quote(SchemaSQL.primaryKey)) FROM \(SQLName.quote(entity.name)) "
                                                   + "WHERE \(condition) ORDER BY 1 LIMIT 10")
            var keys: [Int64] = []
            while try statement.step() { keys.append(statement.int64(at: 0)) }
            guard !keys.isEmpty else { continue }
            let missing = try count(entity.name, where: condition)
            let isNew: Bool = { if case .value = origin { return true } else { return false } }()
            throw PersistError(.validation,
                "Cannot migrate \(entity.name).\(column.keyName) to a required attribute: \(missing) \(entity.name) object\(missing == 1 ? " has" : "s have") "
                + (isNew ? "no value for it (it is new and has no default)" : "no value (nil)")
                + "; give it a default value, or keep it optional and fill it in a custom stage's didMigrate; nothing was changed",
                entity: entity.name, attribute: column.keyName, objectIDs: keys.map { objectID(entity.name, $0) })
        }
    }

    private func count(_ table: String, where condition: String) throws -> Int {
        Int(try connection.singleInt("SELECT count(*) FROM \(SQLName.quote(table)) WHERE \(condition)") ?? 0)
    }

    func objectID(_ entity: String, _ key: Int64) -> ObjectID {
        ObjectID(entityName: entity, storeIdentifier: store.identifier, key: key, isTemporary: false)
    }

    // MARK: Join tables

    private func migrate(_ join: SchemaMapping.JoinTableMapping) throws {
        guard let source = join.source else {
            report("creating \(join.table.name)")
            try connection.execute(SchemaSQL.createTable(for: join.table))
            return
        }
        guard join.swapsEnds, let moved = currentName[source.name] else { return }
        // The other side owns the links now: the same rows with owner and destination traded.
        report("copying \(join.table.name)")
        let owner = SQLName.quote(JoinTable.ownerColumn), destination = SQLName.quote(JoinTable.destinationColumn)
        let position = SQLName.quote(JoinTable.positionColumn)
        try connection.execute(SchemaSQL.createTable(for: join.table))
        try connection.execute("INSERT INTO \(SQLName.quote(join.table.name)) (\(owner), \(destination), \(position)) "
                               + "SELECT \(destination), \(owner), \(position) FROM \(SQLName.quote(moved))")
        rowsDone += connection.changes
        try connection.execute("DROP TABLE \(SQLName.quote(moved))")
        report("copying \(join.table.name)")
    }
}

private extension StoredColumn {
    var isForeignKey: Bool {
        if case .foreignKey = role { return true }
        return false
    }
}
