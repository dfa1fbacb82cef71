/// `@sum`, `@avg`, `@min`, `@max` over a to-many's attribute. Nil values are left out (as SQL's
/// aggregates do); `@sum` of nothing is 0, the others are nil. `@sum` and `@avg` are computed as
/// reals (SQLite's `total()` and `avg()`), so an integer sum is exact up to 2^53.
enum AggregateFunction: String, Sendable, CaseIterable {
    case sum, avg, min, max

    var valueWhenEmpty: SQLValue { self == .sum ? .real(0) : .null }

    /// The aggregate of `values`, as SQLite computes it.
    func apply(_ values: [SQLValue]) -> SQLValue {
        switch self {
        case .sum, .avg:
            var total = 0.0
            var count = 0
            for value in values {
                switch value {
                case .integer(let integer): total += Double(integer)
                case .real(let real): total += real
                case .null: continue
                case .text, .blob: continue
                }
                count += 1
            }
            // SQLite hands back NaN (inf - inf) as NULL.
            if self == .sum { return total.isNaN ? .null : .real(total) }
            let average = total / Double(count)
            return count == 0 || average.isNaN ? .null : .real(average)
        case .min, .max:
            var best: SQLValue = .null
            for value in values where !value.isNull {
                if best.isNull { best = value; continue }
                let order = SQLValue.compare(value, best)
                if self == .min ? order < 0 : order > 0 { best = value }
            }
            return best
        }
    }
}
