/// What a batch read hands the context for each row: as ``StoredRowHandler``, and a function
/// that reads the row's values into an existing object's storage instead of a new buffer.
typealias BatchRowHandler = (_ key: Int64, _ version: Int64, _ decode: () throws -> ContiguousArray<SQLValue>,
                             _ fill: (inout ContiguousArray<SQLValue>) throws -> Void) throws -> Void

/// Reading one batch of a batched fetch: the rows of a run of ascending primary keys.
extension SQLiteStore {
    /// Reads the rows with these ascending primary keys (those that exist), in key order, and
    /// hands each to `body`, as ``read(_:keys:_:)`` does.
    ///
    /// When the keys are dense enough (the usual batch of a fetch in key order), SQLite steps
    /// the table from the first key to the last with one cached statement and the rows between
    /// that are not asked for are skipped undecoded: a B-tree seek per row (`_pk IN (...)`)
    /// costs more than stepping past a few rows. Sparse keys read as ``read(_:keys:_:)``.
    func readAscending(_ plan: BatchReadPlan, keys: ArraySlice<Int64>, _ body: BatchRowHandler) throws {
        guard let first = keys.first, let last = keys.last else { return }
        // The rows between first and last are at most `span`: primary keys are unique integers.
        let (span, overflow) = last.subtractingReportingOverflow(first)
        guard !overflow, span < Int64(keys.count) * Self.rangeReadSpanFactor else {
            try read(plan.entity, keys: Array(keys)) { key, version, decode in
                try withoutActuallyEscaping(decode) { decode in
                    try body(key, version, decode) { $0 = try decode() }
                }
            }
            return
        }
        try withReader { connection in
            let statement = try connection.cachedStatement(plan.rangeSQL)
            defer { statement.reset() }
            statement.bind(first, at: 1)
            let reader = plan.reader
            var next = keys.startIndex
            while next < keys.endIndex, try statement.step() {
                let key = statement.int64(at: 0)
                // Keys below this row's have no row (deleted): the caller sees them missing.
                while next < keys.endIndex && keys[next] < key { next += 1 }
                guard next < keys.endIndex, keys[next] == key else { continue }
                next += 1
                try body(key, statement.int64(at: 1), { try reader.readStorage(statement, key: key) },
                         { try reader.readStorage(statement, key: key, into: &$0) })
            }
        }
    }

    /// How many rows per key a range read may step through: past this the keys are sparse (a
    /// filtered fetch) and seeking each key reads less.
    private static let rangeReadSpanFactor: Int64 = 4
}

extension SQLiteStore {
    /// The keys of an unfiltered query in key order (a walk of the whole table) when they are
    /// `first...last` with no gap, found without stepping the rows: `count(*)` walks the table's
    /// pages without reading its rows, and `min` and `max` are seeks, all in one snapshot. Nil
    /// when the query filters or sorts, or the keys have gaps (the caller reads them one by one).
    func denseKeys(_ query: StoreQuery) throws -> ClosedRange<Int64>? {
        guard query.whereSQL == nil, query.sorts.isEmpty else { return nil }
        let table = SchemaSQL.source(of: query.entity), key = SQLName.quote(SchemaSQL.primaryKey)
        return try withSnapshot { connection in
            guard let count = try connection.singleInt("SELECT count(*) FROM " + table), count > 0,
                  let first = try connection.singleInt("SELECT min(\(key)) FROM " + table),
                  let last = try connection.singleInt("SELECT max(\(key)) FROM " + table),
                  case (let span, false) = last.subtractingReportingOverflow(first), span == count - 1 else { return nil }
            return first...last
        }
    }
}
