/// The reads that load relationships: each is one query, whether for one object (a fault
/// fired) or for every object of a fetch (prefetching).
extension SQLiteStore {
    /// A row that refers to an owner: its key, the owner's key, and its position (ordered only).
    struct Reference {
        let owner: Int64
        let key: Int64
        let position: Int64
    }

    /// The rows of `entity` whose foreign key in `slot` holds one of `owners`, with their
    /// position in `positionSlot` when the inverse is ordered; in owner, position, key order.
    func references(in entity: EntityDescription, slot: Int, positionSlot: Int?, owners: [Int64]) throws -> [Reference] {
        guard !owners.isEmpty else { return [] }
        let column = SQLName.quote(entity.columns[slot].name)
        let position = positionSlot.map { SQLName.quote(entity.columns[$0].name) }
        let primaryKey = SQLName.quote(SchemaSQL.primaryKey)
        let order = (position.map { [$0] } ?? []) + [primaryKey]
        // A relationship to a parent holds its sub-entities' rows too.
        let rows = entity.rowsWithSubentitiesSQL
        let sql = owners.count == 1
            ? "SELECT \(column), \(primaryKey), \(position ?? "0") FROM \(rows) WHERE \(column) = ? ORDER BY "
                + order.joined(separator: ", ")
            : "SELECT \(column), \(primaryKey), \(position ?? "0") FROM \(rows) WHERE \(column) IN (SELECT value FROM json_each(?)) "
                + "ORDER BY \(column), " + order.joined(separator: ", ")
        return try selectReferences(sql, owners)
    }

    /// The links of a join table whose owner is one of `owners`, in owner, position order.
    func links(in table: JoinTable, owners: [Int64]) throws -> [Reference] {
        guard !owners.isEmpty else { return [] }
        let owner = SQLName.quote(JoinTable.ownerColumn), destination = SQLName.quote(JoinTable.destinationColumn)
        let position = SQLName.quote(JoinTable.positionColumn)
        let condition = owners.count == 1 ? "= ?" : "IN (SELECT value FROM json_each(?))"
        return try selectReferences("SELECT \(owner), \(destination), coalesce(\(position), 0) FROM \(SQLName.quote(table.name)) "
                                    + "WHERE \(owner) \(condition) ORDER BY \(owner), \(position), \(destination)", owners)
    }

    /// The links of a join table whose destination is one of `destinations`, seen from the
    /// destination: `owner` is the destination's key, `key` the owning object's.
    func inverseLinks(in table: JoinTable, destinations: [Int64]) throws -> [Reference] {
        guard !destinations.isEmpty else { return [] }
        let owner = SQLName.quote(JoinTable.ownerColumn), destination = SQLName.quote(JoinTable.destinationColumn)
        let condition = destinations.count == 1 ? "= ?" : "IN (SELECT value FROM json_each(?))"
        return try selectReferences("SELECT \(destination), \(owner), 0 FROM \(SQLName.quote(table.name)) "
                                    + "WHERE \(destination) \(condition) ORDER BY \(destination), \(owner)", destinations)
    }

    /// Reads the rows with these primary keys in one query (keys bound as one JSON array).
    func read(_ entity: EntityDescription, keyList keys: [Int64], _ body: StoredRowHandler) throws {
        guard !keys.isEmpty else { return }
        if keys.count <= 8 {
            try read(entity, keys: keys, body)
            return
        }
        let sql = SchemaSQL.selectColumns(for: entity) + " WHERE \(SQLName.quote(SchemaSQL.primaryKey)) IN (SELECT value FROM json_each(?))"
        try withReader { connection in
            let statement = try connection.cachedStatement(sql)
            defer { statement.reset() }
            try statement.bind([Self.jsonArray(keys)])
            let reader = RowReader(entity: entity)
            while try statement.step() {
                let key = statement.int64(at: 0)
                try body(key, statement.int64(at: 1)) { try reader.readStorage(statement, key: key) }
            }
        }
    }

    /// What a whole-row relationship read hands the context for each row: the row's reference
    /// (as ``references(in:slot:positionSlot:owners:)``, ``links(in:owners:)`` or
    /// ``inverseLinks(in:destinations:)`` give it), its version, and its values on demand.
    typealias ReferencedRowHandler = (_ reference: Reference, _ version: Int64,
                                      _ decode: () throws -> ContiguousArray<SQLValue>) throws -> Void

    /// ``references(in:slot:positionSlot:owners:)`` with the whole rows, in the same order: the
    /// related objects of many owners in one query (prefetching).
    func readReferencing(_ entity: EntityDescription, slot: Int, positionSlot: Int?, owners: [Int64],
                         _ body: ReferencedRowHandler) throws {
        guard !owners.isEmpty else { return }
        let column = SQLName.quote(entity.columns[slot].name)
        let order = [column] + (positionSlot.map { [SQLName.quote(entity.columns[$0].name)] } ?? [])
            + [SQLName.quote(SchemaSQL.primaryKey)]
        let sql = SchemaSQL.selectColumns(for: entity) + " WHERE \(column) IN (SELECT value FROM json_each(?)) ORDER BY "
            + order.joined(separator: ", ")
        try readReferencedRows(sql, owners, entity: entity, body) { statement in
            Reference(owner: statement.int64(at: Int32(slot + 2)), key: statement.int64(at: 0),
                      position: positionSlot.map { statement.int64(at: Int32($0 + 2)) } ?? 0)
        }
    }

    /// ``links(in:owners:)`` with the destinations' whole rows (`entity`), in the same order.
    func readLinked(_ entity: EntityDescription, in table: JoinTable, owners: [Int64], _ body: ReferencedRowHandler) throws {
        guard !owners.isEmpty else { return }
        let (owner, position) = (SQLName.quote(JoinTable.ownerColumn), SQLName.quote(JoinTable.positionColumn))
        let destination = SQLName.quote(JoinTable.destinationColumn)
        let sql = Self.joinedSelect(entity, table: table, extra: "j.\(owner), coalesce(j.\(position), 0)", on: destination)
            + " WHERE j.\(owner) IN (SELECT value FROM json_each(?)) ORDER BY j.\(owner), j.\(position), j.\(destination)"
        let extra = Int32(entity.columns.count + 2)
        try readReferencedRows(sql, owners, entity: entity, body) { statement in
            Reference(owner: statement.int64(at: extra), key: statement.int64(at: 0), position: statement.int64(at: extra + 1))
        }
    }

    /// ``inverseLinks(in:destinations:)`` with the owning objects' whole rows (`entity`), in
    /// the same order.
    func readInverseLinked(_ entity: EntityDescription, in table: JoinTable, destinations: [Int64],
                           _ body: ReferencedRowHandler) throws {
        guard !destinations.isEmpty else { return }
        let (owner, destination) = (SQLName.quote(JoinTable.ownerColumn), SQLName.quote(JoinTable.destinationColumn))
        let sql = Self.joinedSelect(entity, table: table, extra: "j.\(destination)", on: owner)
            + " WHERE j.\(destination) IN (SELECT value FROM json_each(?)) ORDER BY j.\(destination), j.\(owner)"
        let extra = Int32(entity.columns.count + 2)
        try readReferencedRows(sql, destinations, entity: entity, body) { statement in
            Reference(owner: statement.int64(at: extra), key: statement.int64(at: 0), position: 0)
        }
    }

    /// `SELECT t.<entity's columns>, <extra> FROM <table> AS j JOIN <entity> AS t ON t._pk = j.<on>`.
    private static func joinedSelect(_ entity: EntityDescription, table: JoinTable, extra: String, on column: String) -> String {
        "SELECT " + SchemaSQL.columnNames(for: entity).map { "t." + SQLName.quote($0) }.joined(separator: ", ") + ", \(extra)"
            + " FROM \(SQLName.quote(table.name)) AS j JOIN \(SQLName.quote(entity.name)) AS t"
            + " ON t.\(SQLName.quote(SchemaSQL.primaryKey)) = j.\(column)"
    }

    private func readReferencedRows(_ sql: String, _ keys: [Int64], entity: EntityDescription, _ body: ReferencedRowHandler,
                                    reference: (SQLiteStatement) -> Reference) throws {
        try withReader { connection in
            let statement = try connection.cachedStatement(sql)
            defer { statement.reset() }
            try statement.bind([Self.jsonArray(keys)])
            let reader = RowReader(entity: entity)
            while try statement.step() {
                let row = reference(statement)
                try body(row, statement.int64(at: 1)) { try reader.readStorage(statement, key: row.key) }
            }
        }
    }

    private func selectReferences(_ sql: String, _ keys: [Int64]) throws -> [Reference] {
        try withReader { connection in
            let statement = try connection.cachedStatement(sql)
            defer { statement.reset() }
            try statement.bind([keys.count == 1 ? .integer(keys[0]) : Self.jsonArray(keys)])
            var result: [Reference] = []
            while try statement.step() {
                result.append(Reference(owner: statement.int64(at: 0), key: statement.int64(at: 1), position: statement.int64(at: 2)))
            }
            return result
        }
    }

    static func jsonArray(_ keys: [Int64]) -> SQLValue {
        var text = "["
        text.reserveCapacity(keys.count * 8)
        for (index, key) in keys.enumerated() {
            if index > 0 { text += "," }
            text += String(key)
        }
        return .text(text + "]")
    }
}
