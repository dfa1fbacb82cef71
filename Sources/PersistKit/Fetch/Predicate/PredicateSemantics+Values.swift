import Foundation
import PersistKitText

// Comparisons of two computed values (`completedAt > due`, `budget - spent < 0`): arithmetic as
// SQLite computes it, and the comparison of its results as every other comparison.
extension PredicateSemantics {
    // MARK: - Arithmetic: + - * / and unary minus

    /// Memory: `a op b` as SQLite's virtual machine computes it (`OP_Add`... in `vdbe.c`):
    /// - NULL on either side gives NULL;
    /// - two integers give an integer (`7 / 2` is 3, truncated toward zero), unless the result
    ///   overflows 64 bits: then both are converted to reals and the result is a real
    ///   (`9223372036854775807 + 1` is 9.223372036854776e18);
    /// - otherwise the result is a real (`7.0 / 2` is 3.5);
    /// - division by zero (integer or real) gives NULL, and so does a NaN result (`inf - inf`);
    ///   an infinite result stays infinite.
    ///
    /// Text and blobs are read as numbers (``number(_:)``); the resolvers refuse them by type,
    /// so only a value of the wrong type in a store file reaches this.
    static func arithmetic(_ op: ArithmeticOperator, _ a: SQLValue, _ b: SQLValue) -> SQLValue {
        guard let x = number(a), let y = number(b) else { return .null }
        if case .integer(let i) = x, case .integer(let j) = y {
            switch op {
            case .add:
                let result = i.addingReportingOverflow(j)
                if !result.overflow { return .integer(result.partialValue) }
            case .subtract:
                let result = i.subtractingReportingOverflow(j)
                if !result.overflow { return .integer(result.partialValue) }
            case .multiply:
                let result = i.multipliedReportingOverflow(by: j)
                if !result.overflow { return .integer(result.partialValue) }
            case .divide:
                if j == 0 { return .null }
                if !(j == -1 && i == .min) { return .integer(i / j) }
            }
        }
        let p = real(x), q = real(y)
        let result: Double
        switch op {
        case .add: result = p + q
        case .subtract: result = p - q
        case .multiply: result = p * q
        case .divide:
            if q == 0 { return .null }
            result = p / q
        }
        return result.isNaN ? .null : .real(result)
    }

    /// How a column stores a number, which arithmetic sees (`7 / 2` is 3 in an integer column,
    /// 3.5 in a real one): memory holds a value as it was set, SQLite as its column's affinity
    /// converts it.
    enum Affinity {
        /// An integer column: a real that is exactly an integer is stored as that integer.
        case integer
        /// A real column (doubles, floats, dates): an integer is stored as a real.
        case real
        /// Values as they are (text and blob columns, and values read back from SQLite).
        case none

        init(_ type: AttributeType) {
            switch type.columnType {
            case "INTEGER": self = .integer
            case "REAL": self = .real
            default: self = .none
            }
        }

        /// The value as SQLite stores it in such a column (`sqlite3VdbeIntegerAffinity`: an
        /// exact integer strictly between Int64's extremes; every integer for a real column).
        func apply(_ value: SQLValue) -> SQLValue {
            switch (self, value) {
            case (.integer, .real(let real)):
                guard let integer = Int64(exactly: real), integer != .min, integer != .max else { return value }
                return .integer(integer)
            case (.real, .integer(let integer)): return .real(Double(integer))
            default: return value
            }
        }
    }

    /// Memory: `-value`, which SQLite computes as `0 - value` (so `-(-9223372036854775808)` is a real).
    static func negate(_ value: SQLValue) -> SQLValue {
        arithmetic(.subtract, .integer(0), value)
    }

    /// A value as arithmetic reads it: numbers as they are, NULL as nil, text as the number it
    /// spells (an integer when it is one, 0 when it spells none), a blob as its bytes' text.
    static func number(_ value: SQLValue) -> SQLValue? {
        switch value {
        case .null: return nil
        case .integer, .real: return value
        case .text(let text): return number(spelledBy: text)
        case .blob(let data): return number(spelledBy: String(decoding: data, as: UTF8.self))
        }
    }

    private static func number(spelledBy text: String) -> SQLValue {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let integer = Int64(trimmed) { return .integer(integer) }
        if let real = Double(trimmed), real.isFinite {
            if let integer = Int64(exactly: real) { return .integer(integer) }
            return .real(real)
        }
        return .integer(0)
    }

    private static func real(_ number: SQLValue) -> Double {
        switch number {
        case .integer(let integer): return Double(integer)
        case .real(let real): return real
        default: return 0
        }
    }

    /// SQL: `(a op b)`; SQLite computes it as ``arithmetic(_:_:_:)`` does.
    static func arithmeticSQL(_ op: ArithmeticOperator, _ a: SQLFragment, _ b: SQLFragment) -> SQLFragment {
        SQLFragment(sql: "(\(a.sql) \(op.symbol) \(b.sql))", stack: max(a.stack, b.stack + 3) + 1,
                    height: max(a.height, b.height) + 1)
    }

    /// SQL: `(- a)`, which SQLite computes as `0 - a` (``negate(_:)``).
    static func negateSQL(_ a: SQLFragment) -> SQLFragment {
        SQLFragment(sql: "(- \(a.sql))", stack: a.stack + 3, height: a.height + 1)
    }

    /// SQL: a column read as a value without affinity (`+"due"`), so no comparison or
    /// arithmetic converts the other side's type: values compare as ``SQLValue/compare(_:_:collation:)``
    /// compares them in memory.
    static func valueSQL(column: String) -> SQLFragment {
        SQLFragment(sql: "+" + column, stack: 2, height: 2)
    }

    /// SQL: the value of attribute `column` of the object at the end of to-one `hops` from the
    /// row whose foreign key is `foreignKey` (qualified), NULL when a to-one on the way is NULL
    /// (``follow(_:from:)`` in memory): a correlated scalar subquery, looked up by primary key
    /// (`primaryKey`, quoted), its tables named by `alias`.
    static func toOneValueSQL(_ hops: [PredicateKey.Hop], column: String, foreignKey: String, primaryKey: String,
                              alias: (Int) -> String) -> SQLFragment {
        let tables = toOnePathTables(hops, primaryKey: primaryKey, alias: alias)
        return SQLFragment(sql: "(SELECT +\(alias(hops.count)).\(SQLName.quote(column)) FROM \(tables) "
                           + "WHERE \(alias(1)).\(primaryKey) = \(foreignKey))", stack: 14, height: 5)
    }

    // MARK: - Comparing two computed values

    /// Memory: `a` compared with `b` as any comparison with a value compares
    /// (``compare(_:_:_:)``: nil equals nil only, orderings with nil are false), or the text
    /// operator with `b` as the pattern (false unless both are text).
    static func compareValues(_ a: SQLValue, _ comparison: ValueComparison, _ b: SQLValue) -> Bool {
        switch comparison {
        case .order(let op): return compare(a, op, b)
        case .text(let op, let options):
            guard case .text(let pattern) = b else { return false }
            return text(a, op, pattern, options)
        }
    }

    /// SQL: `a` compared with `b`, never NULL: `IS` and `IS NOT` for `==` and `!=` (NULL is a
    /// value), an ordering that is NULL when either side is NULL made false (`coalesce(..., 0)`),
    /// the text functions for text operators (0 when either side is NULL).
    static func compareValuesSQL(_ a: SQLFragment, _ comparison: ValueComparison, _ b: SQLFragment) -> SQLFragment {
        let stack = max(a.stack, b.stack + 3) + 4, height = max(a.height, b.height) + 2
        switch comparison {
        case .order(.equal): return SQLFragment(sql: "(\(a.sql) IS \(b.sql))", stack: stack, height: height)
        case .order(.notEqual): return SQLFragment(sql: "(\(a.sql) IS NOT \(b.sql))", stack: stack, height: height)
        case .order(let op): return SQLFragment(sql: "coalesce(\(a.sql) \(op.sql) \(b.sql), 0)", stack: stack, height: height)
        case .text(let op, let options):
            return SQLFragment(sql: "\(TextFunctions.functionName(op, options.textOptions))(\(a.sql), \(b.sql))",
                               stack: stack, height: height)
        }
    }
}
