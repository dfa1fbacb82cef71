import CSQLite
import Foundation

/// The SQL function `pk_predicate(predicate, column, ...)`, registered on every connection: a
/// predicate too large for SQLite to prepare quickly, evaluated by ``PredicateEvaluator``.
///
/// The first argument is the predicate encoded by ``PredicateCodec`` (decoded once per
/// statement run: SQLite keeps the evaluator as auxiliary data of that argument); the others are
/// the columns the predicate reads, in the order its encoding names them. The answer is the
/// in-memory evaluator's, so SQL and memory agree by construction.
enum PredicateFunction {
    static let name = "pk_predicate"

    /// Carries an evaluator through SQLite's auxiliary-data pointer.
    private final class Box {
        let evaluator: PredicateEvaluator
        init(_ evaluator: PredicateEvaluator) { self.evaluator = evaluator }
    }

    static func register(on db: OpaquePointer) {
        sqlite3_create_function_v2(db, name, -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nil, { context, argc, argv in
            guard let context, let argv, argc >= 1, let encoded = argv[0] else { return }
            let box: Box
            if let cached = sqlite3_get_auxdata(context, 0) {
                box = Unmanaged<Box>.fromOpaque(cached).takeUnretainedValue()
            } else {
                do {
                    box = Box(try PredicateFunction.decode(encoded))
                } catch {
                    sqlite3_result_error(context, "\(error)", -1)
                    return
                }
                // SQLite may release the data at once; `box` keeps its own reference.
                sqlite3_set_auxdata(context, 0, Unmanaged.passRetained(box).toOpaque()) { data in
                    if let data { Unmanaged<Box>.fromOpaque(data).release() }
                }
            }
            var storage = ContiguousArray<SQLValue>()
            storage.reserveCapacity(Int(argc) - 1)
            for index in 1..<Int(argc) { storage.append(PredicateFunction.value(argv[index])) }
            do throws(PersistError) {
                sqlite3_result_int(context, try box.evaluator.evaluate(storage) ? 1 : 0)
            } catch {
                SQLiteFunctionError.report(error, to: context)
            }
        }, nil, nil, nil)
    }

    private static func decode(_ encoded: OpaquePointer) throws -> PredicateEvaluator {
        let blob = sqlite3_value_blob(encoded)
        let count = Int(sqlite3_value_bytes(encoded))
        let (attributes, node) = try PredicateCodec.decode(UnsafeRawBufferPointer(start: blob, count: count))
        let slots = Dictionary(attributes.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return try PredicateEvaluator(normalized: node, slots: slots)
    }

    /// A function argument as a stored value, with its storage class.
    private static func value(_ argument: OpaquePointer?) -> SQLValue {
        guard let argument else { return .null }
        switch sqlite3_value_type(argument) {
        case SQLITE_INTEGER: return .integer(sqlite3_value_int64(argument))
        case SQLITE_FLOAT: return .real(sqlite3_value_double(argument))
        case SQLITE_TEXT:
            let text = sqlite3_value_text(argument)
            let count = Int(sqlite3_value_bytes(argument))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let blob = sqlite3_value_blob(argument)
            let count = Int(sqlite3_value_bytes(argument))
            guard let blob, count > 0 else { return .blob(Data()) }
            return .blob(Data(bytes: blob, count: count))
        default: return .null
        }
    }
}
