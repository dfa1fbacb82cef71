import CSQLite
import Foundation

/// The SQL functions and collations PersistKit registers on every connection.
///
/// They call the same Swift code as the in-memory evaluator (``TextMatcher``,
/// ``TextCollation``), which is what makes `[c]`/`[d]` string predicates and case-insensitive
/// sorts agree between SQL and memory for all of Unicode.
enum TextFunctions {
    /// The SQL function name for a string operator with options, e.g. `pk_contains_3`.
    static func functionName(_ op: TextMatchOperator, _ options: StringComparisonOptions) -> String {
        "pk_\(operatorName(op))_\(options.rawValue & 3)"
    }

    /// The SQL function name for `MATCHES` with options, e.g. `pk_matches_1`.
    static func matchesFunctionName(_ options: StringComparisonOptions) -> String {
        "pk_matches_\(options.rawValue & 3)"
    }

    /// The collation name for a sort comparison (nil for SQLite's own BINARY).
    static func collationName(_ collation: TextCollation) -> String? {
        switch collation {
        case .binary: return nil
        case .caseInsensitive: return "pk_case_insensitive"
        case .localizedStandard: return "pk_localized_standard"
        }
    }

    private static let operators: [TextMatchOperator] = [.equal, .contains, .beginsWith, .endsWith, .like]

    private static func operatorName(_ op: TextMatchOperator) -> String {
        switch op {
        case .equal: return "equal"
        case .contains: return "contains"
        case .beginsWith: return "beginswith"
        case .endsWith: return "endswith"
        case .like: return "like"
        }
    }

    private static func operatorCode(_ op: TextMatchOperator) -> Int {
        operators.firstIndex(of: op) ?? 0
    }

    static func register(on db: OpaquePointer) {
        for op in operators {
            for flags in 0..<4 {
                // The operator and options travel in the user-data pointer: no per-row argument decoding.
                let code = operatorCode(op) << 2 | flags
                let userData = UnsafeMutableRawPointer(bitPattern: code + 1)
                sqlite3_create_function_v2(
                    db, functionName(op, StringComparisonOptions(rawValue: flags)), 2,
                    SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, userData,
                    { context, argc, argv in
                        guard let context, argc == 2, let argv else { return }
                        let code = Int(bitPattern: sqlite3_user_data(context)) - 1
                        let opIndex = code >> 2
                        guard opIndex >= 0, opIndex < TextFunctions.operators.count else {
                            sqlite3_result_int(context, 0)
                            return
                        }
                        let op = TextFunctions.operators[opIndex]
                        let options = StringComparisonOptions(rawValue: code & 3)
                        guard let valueArg = argv[0], let patternArg = argv[1],
                              sqlite3_value_type(valueArg) != SQLITE_NULL,
                              sqlite3_value_type(patternArg) != SQLITE_NULL else {
                            // A NULL never matches a string operator: two-valued, like the in-memory path.
                            sqlite3_result_int(context, 0)
                            return
                        }
                        let value = UnsafeBufferPointer(start: sqlite3_value_text(valueArg),
                                                        count: Int(sqlite3_value_bytes(valueArg)))
                        let pattern = UnsafeBufferPointer(start: sqlite3_value_text(patternArg),
                                                          count: Int(sqlite3_value_bytes(patternArg)))
                        let matched = TextMatcher.matches(op, value: value, pattern: pattern, options: options)
                        sqlite3_result_int(context, matched ? 1 : 0)
                    }, nil, nil, nil)
            }
        }
        registerMatches(on: db)
        PredicateFunction.register(on: db)
        registerCollation(on: db, .caseInsensitive)
        registerCollation(on: db, .localizedStandard)
    }

    /// `pk_matches_N(value, pattern)`: ``PredicateRegex``, compiled once per statement (SQLite
    /// keeps it as auxiliary data of the pattern argument). Non-text values never match, as in memory.
    private static func registerMatches(on db: OpaquePointer) {
        for flags in 0..<4 {
            sqlite3_create_function_v2(
                db, matchesFunctionName(StringComparisonOptions(rawValue: flags)), 2,
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
                        do {
                            regex = try PredicateRegex(pattern: pattern, options: options)
                        } catch {
                            sqlite3_result_error(context, "\(error)", -1)
                            return
                        }
                        // SQLite may release the data at once; `regex` keeps its own reference.
                        sqlite3_set_auxdata(context, 1, Unmanaged.passRetained(regex).toOpaque()) { data in
                            if let data { Unmanaged<PredicateRegex>.fromOpaque(data).release() }
                        }
                    }
                    let value = UnsafeBufferPointer(start: sqlite3_value_text(valueArg), count: Int(sqlite3_value_bytes(valueArg)))
                    sqlite3_result_int(context, regex.matches(value) ? 1 : 0)
                }, nil, nil, nil)
        }
    }

    private static func registerCollation(on db: OpaquePointer, _ collation: TextCollation) {
        guard let name = collationName(collation) else { return }
        let userData = UnsafeMutableRawPointer(bitPattern: collation == .caseInsensitive ? 1 : 2)
        sqlite3_create_collation_v2(db, name, SQLITE_UTF8, userData, { userData, count1, bytes1, count2, bytes2 in
            let collation: TextCollation = Int(bitPattern: userData) == 1 ? .caseInsensitive : .localizedStandard
            let a = UnsafeBufferPointer(start: bytes1?.assumingMemoryBound(to: UInt8.self), count: Int(count1))
            let b = UnsafeBufferPointer(start: bytes2?.assumingMemoryBound(to: UInt8.self), count: Int(count2))
            return collation.compare(a, b)
        }, nil)
    }
}
