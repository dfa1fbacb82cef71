import CSQLite
import Foundation

/// The primary keys of the rows one statement updates or deletes in one table, taken from
/// SQLite's update hook as the statement writes them.
///
/// A batch request learns its rows this way in the statement's own pass: `RETURNING` makes
/// SQLite collect the matching rows first and visit each one again, and selecting the keys
/// before writing reads every row twice.
final class ChangedRowCollector {
    /// Which writes to collect.
    enum Operation {
        case update, delete

        fileprivate var code: Int32 { self == .update ? SQLITE_UPDATE : SQLITE_DELETE }
    }

    private let code: Int32
    /// The table's name, NUL-terminated, to compare with the hook's C string.
    private let table: ContiguousArray<CChar>
    /// The last table-name pointer the hook gave that matched: SQLite passes the table's own
    /// name, the same pointer for every row.
    /// Unchecked: only the hook touches these, once per row, while the statement runs.
    @exclusivity(unchecked) private var matched: UnsafePointer<CChar>?
    @exclusivity(unchecked) private var keys: [Int64] = []

    private init(_ operation: Operation, table: String) {
        code = operation.code
        self.table = ContiguousArray(table.utf8CString)
    }

    /// Runs `body` (one statement, on `connection`) and returns the keys of the rows of `table`
    /// it updated or deleted, in the order SQLite wrote them.
    static func keys(_ operation: Operation, in table: String, on connection: SQLiteConnection,
                     _ body: () throws -> Void) throws -> [Int64] {
        let collector = ChangedRowCollector(operation, table: table)
        return try withExtendedLifetime(collector) {
            sqlite3_update_hook(connection.handle, { context, code, _, table, key in
                guard let context, let table else { return }
                // The collector outlives the statement (`withExtendedLifetime`): no retain per row.
                Unmanaged<ChangedRowCollector>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.note(code, table, key) }
            }, Unmanaged.passUnretained(collector).toOpaque())
            defer { sqlite3_update_hook(connection.handle, nil, nil) }
            try body()
            return collector.keys
        }
    }

    private func note(_ code: Int32, _ name: UnsafePointer<CChar>, _ key: Int64) {
        guard code == self.code else { return }
        if name != matched {
            let same = table.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { strcmp($0, name) == 0 } ?? false }
            guard same else { return }
            matched = name
        }
        keys.append(key)
    }
}
