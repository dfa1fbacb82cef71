import CSQLite
import Foundation
import PersistKitText

/// The SQL functions that run Fetch's code inside SQLite: `MATCHES` (``PredicateRegex``) and
/// `pk_predicate` (``PredicateFunction``, the in-memory evaluator for predicates too large for
/// SQLite's parser). The store registers them on each connection it opens; the SQLite layer
/// below knows nothing of predicates.
enum PredicateSQLFunctions {
    /// Registers every function on a newly opened connection.
    static func register(on connection: SQLiteConnection) {
        registerMatches(on: connection.handle)
        PredicateFunction.register(on: connection.handle)
    }


    /// `pk_matches_N(value, pattern)`: ``PredicateRegex``, compiled once per statement (SQLite
    /// keeps it as auxiliary data of the pattern argument). Non-text values never match, as in memory.
    private static func registerMatches(on db: OpaquePointer) {
        for flags in 0..<4 {
            sqlite3_create_function_v2(
                db, PredicateSemantics.matchesFunctionName(StringComparisonOptions(rawValue: flags)), 2,
                SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, UnsafeMutableRawPointer(bitPattern: flags + 1),
                { context, argc, argv in
                    guard let context, argc == 2, let argv, let valueArg = argv[0], let patternArg = argv[1] else { return }
                    guard sqlite3_value_type(valueArg) == SQLITE_TEXT, sqlite3_value_type(patternArg) != SQLITE_NULL else {
                        sqlite3_result_int(context, 0)
                        return
                    }
                    let regex: PredicateRegex
                    if let cached = sqlite3_get_auxdata(context, 1) {
                        regex = Unmanaged<PredicateRegex>.fromOpaque(cached).takeUnretainedValue()
                    } else {
                        let options = StringComparisonOptions(rawValue: (Int(bitPattern: sqlite3_user_data(context)) - 1) & 3)
                        let pattern = String(decoding: UnsafeBufferPointer(start: sqlite3_value_text(patternArg),
                                                                           count: Int(sqlite3_value_bytes(patternArg))), as: UTF8.self)
                        do throws(PersistError) {
                            regex = try PredicateRegex(pattern: pattern, options: options)
                        } catch {
                            SQLiteFunctionError.report(error, to: context)
                            return
                        }
                        // SQLite may release the data at once; `regex` keeps its own reference.
                        sqlite3_set_auxdata(context, 1, Unmanaged.passRetained(regex).toOpaque()) { data in
                            if let data { Unmanaged<PredicateRegex>.fromOpaque(data).release() }
                        }
                    }
                    let value = UnsafeBufferPointer(start: sqlite3_value_text(valueArg), count: Int(sqlite3_value_bytes(valueArg)))
                    do throws(PersistError) {
                        sqlite3_result_int(context, try regex.matches(value) ? 1 : 0)
                    } catch {
                        SQLiteFunctionError.report(error, to: context)
                    }
                }, nil, nil, nil)
        }
    }

}
