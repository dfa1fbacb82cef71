import Foundation

/// Arithmetic with constants on a numeric attribute (`$0.count * 2 + 1`), and comparisons of its
/// result with a constant rewritten as comparisons of the stored value itself.
///
/// Why a rewrite and not an arithmetic node: every step is monotone in the stored value `x`
/// (adding, subtracting, multiplying or dividing by a constant, negating), so the values of `x`
/// for which `f(x) op k` holds form one interval of `x`'s type, and a binary search over that
/// type finds its ends exactly. The predicate becomes ordinary comparisons of `x` with
/// constants, which SQL and the in-memory evaluator already answer identically; an arithmetic
/// node would instead need SQLite's arithmetic (integer overflow turning into reals, division
/// by zero into NULL) reproduced bit for bit in memory.
///
/// Semantics: floating-point steps are IEEE arithmetic in the attribute's own type (`Double` or
/// `Float`), exactly as Swift computes them. Integer steps are exact: where Swift would trap on
/// overflow (`Int.max + 1`), the translated predicate compares the mathematical result instead.
/// Division by a constant zero, multiplying a floating-point attribute by zero, non-finite
/// constants and attributes as divisors are refused at translation.
struct FoundationPredicateArithmetic {
    /// The stored values an attribute can have, as the arithmetic sees them.
    enum Domain {
        case integer(ClosedRange<Int64>)
        case double
        case float
    }

    /// One step of arithmetic with a constant.
    enum Operation: String {
        case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
    }

    private enum Step {
        case add, subtract, subtractFrom, multiply, divide, negate
    }

    let domain: Domain
    private var steps: [(step: Step, integer: Int64, real: Double)] = []

    /// Arithmetic on an attribute of `type`; nil when the type is not numeric in storage.
    init?(type: AttributeType) {
        switch type {
        case .integer: domain = .integer(Int64(Int.min)...Int64(Int.max))
        case .integer64: domain = .integer(Int64.min...Int64.max)
        case .integer32: domain = .integer(Int64(Int32.min)...Int64(Int32.max))
        case .integer16: domain = .integer(Int64(Int16.min)...Int64(Int16.max))
        case .double, .date: domain = .double
        case .float: domain = .float
        default: return nil
        }
    }

    var isEmpty: Bool { steps.isEmpty }

    /// Appends `x op constant` (or `constant op x` when `constantFirst`).
    mutating func append(_ operation: Operation, _ constant: Any?, constantFirst: Bool) throws {
        let step: Step
        switch (operation, constantFirst) {
        case (.add, _): step = .add
        case (.subtract, false): step = .subtract
        case (.subtract, true): step = .subtractFrom
        case (.multiply, _): step = .multiply
        case (.divide, false): step = .divide
        case (.divide, true), (.remainder, _):
            throw PersistError(.invalidPredicate,
                constantFirst ? "Dividing by an attribute is not supported" : "The remainder (%) of an attribute is not supported")
        }
        switch domain {
        case .integer:
            guard let value = constant as? any BinaryInteger, let integer = Int64(exactly: value) else {
                throw PersistError(.invalidPredicate, "The constant \(constant.map { "\($0)" } ?? "nil") is not a 64-bit integer")
            }
            if step == .divide && integer == 0 { throw PersistError(.invalidPredicate, "Division by zero") }
            steps.append((step, integer, 0))
        case .double, .float:
            guard let value = constant as? any BinaryFloatingPoint, Double(value).isFinite else {
                throw PersistError(.invalidPredicate,
                    "Arithmetic with the constant \(constant.map { "\($0)" } ?? "nil") is not supported: it must be a finite number")
            }
            let real = Double(value)
            if real == 0 && (step == .divide || step == .multiply) {
                throw PersistError(.invalidPredicate, step == .divide ? "Division by zero"
                    : "Multiplying a floating-point attribute by zero is not supported (infinity times zero is NaN)")
            }
            steps.append((step, 0, real))
        }
    }

    /// Appends `-x`.
    mutating func negate() {
        steps.append((.negate, 0, 0))
    }

    /// The steps as a ``PredicateValue`` on `value`, for comparisons with another attribute:
    /// computed as SQLite computes (``PredicateSemantics/arithmetic(_:_:_:)``), not as Swift does.
    func applied(to value: PredicateValue) -> PredicateValue {
        var result = value
        for (step, integer, real) in steps {
            let constant = PredicateValue.constant({ if case .integer = domain { return .integer(integer) } else { return .real(real) } }())
            switch step {
            case .add: result = .arithmetic(.add, result, constant)
            case .subtract: result = .arithmetic(.subtract, result, constant)
            case .subtractFrom: result = .arithmetic(.subtract, constant, result)
            case .multiply: result = .arithmetic(.multiply, result, constant)
            case .divide: result = .arithmetic(.divide, result, constant)
            case .negate: result = .negated(result)
            }
        }
        return result
    }

    // MARK: Comparing

    /// The stored values `x` of the attribute named `name` for which `f(x) op constant` holds.
    func node(_ op: ComparisonOperator, _ constant: Any?, attribute name: String) throws -> PredicateNode {
        if op == .notEqual {
            return FoundationPredicateLogic.not(try node(.equal, constant, attribute: name))
        }
        guard let constant, !FoundationPredicateConstant.isNaN(constant) else { return .constant(false) }
        switch domain {
        case .integer(let range):
            guard let value = constant as? any BinaryInteger, let k = Int64(exactly: value) else {
                throw PersistError(.invalidPredicate, "The constant \(constant) is not a 64-bit integer", attribute: name)
            }
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                return try integerNode(op, k, range: range, attribute: name)
            }
            throw PersistError(.invalidPredicate,
                "Integer arithmetic on an attribute needs 128-bit integers (macOS 15, iOS 18 or later)", attribute: name)
        case .double:
            guard let value = constant as? any BinaryFloatingPoint else {
                throw PersistError(.invalidPredicate, "The constant \(constant) is not a floating-point number", attribute: name)
            }
            return floatingNode(op, Double(value), attribute: name, key: Self.key(of:), value: Self.double(atKey:))
        case .float:
            guard let value = constant as? any BinaryFloatingPoint else {
                throw PersistError(.invalidPredicate, "The constant \(constant) is not a floating-point number", attribute: name)
            }
            return floatingNode(op, Float(value), attribute: name, key: { Int64(Self.key(of: $0)) },
                                value: { Self.float(atKey: Int32(truncatingIfNeeded: $0)) })
        }
    }

    /// Integers are computed exactly in 128 bits. Each intermediate value is monotone in `x`, so
    /// if neither end of the domain overflows at any step, no value in between does.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func integerNode(_ op: ComparisonOperator, _ k: Int64, range: ClosedRange<Int64>,
                             attribute name: String) throws -> PredicateNode {
        for end in [range.lowerBound, range.upperBound] where integerValue(end) == nil {
            throw PersistError(.invalidPredicate,
                "The arithmetic on \(name) can exceed 128 bits: use smaller constants", attribute: name)
        }
        let target = Int128(k)
        let keys = Self.solve(op, range.lowerBound, range.upperBound) { x, op in
            guard let y = self.integerValue(x) else { return false }
            return Self.compare(y, op, target)
        }
        return Self.emit(keys, lower: range.lowerBound, upper: range.upperBound, attribute: name) { .integer($0) }
    }

    private func floatingNode<F: BinaryFloatingPoint>(_ op: ComparisonOperator, _ k: F, attribute name: String,
                                                      key: (F) -> Int64, value: @escaping (Int64) -> F) -> PredicateNode {
        let lower = key(-F.infinity), upper = key(F.infinity)
        let keys = Self.solve(op, lower, upper) { x, op in
            Self.compare(self.floatingValue(value(x)), op, k)
        }
        return Self.emit(keys, lower: lower, upper: upper, attribute: name) { .real(Double(value($0))) }
    }

    /// The keys in `lower...upper` where `f(x) op k` holds, given `holds(x, op)`. For ordering
    /// operators the set is a prefix or a suffix (f is monotone); `==` is `>=` and `<=` at once.
    private static func solve(_ op: ComparisonOperator, _ lower: Int64, _ upper: Int64,
                              _ holds: (Int64, ComparisonOperator) -> Bool) -> ClosedRange<Int64>? {
        guard op == .equal else { return monotoneSet(lower, upper) { holds($0, op) } }
        guard let atLeast = monotoneSet(lower, upper, { holds($0, .greaterOrEqual) }),
              let atMost = monotoneSet(lower, upper, { holds($0, .lessOrEqual) }) else { return nil }
        let from = max(atLeast.lowerBound, atMost.lowerBound), to = min(atLeast.upperBound, atMost.upperBound)
        return from <= to ? from...to : nil
    }

    /// The keys where a monotone test holds (true on a prefix, or on a suffix, of `lower...upper`).
    private static func monotoneSet(_ lower: Int64, _ upper: Int64, _ test: (Int64) -> Bool) -> ClosedRange<Int64>? {
        let first = test(lower), last = test(upper)
        if first == last { return first ? lower...upper : nil }
        // test(a) != last, test(b) == last; narrow to neighbours.
        var a = lower, b = upper
        while UInt64(bitPattern: b &- a) > 1 {
            let middle = a + Int64(bitPattern: UInt64(bitPattern: b &- a) / 2)
            if test(middle) == last { b = middle } else { a = middle }
        }
        return last ? b...upper : lower...a
    }

    /// The predicate for `x` in `keys`, leaving out bounds that are the domain's own.
    private static func emit(_ keys: ClosedRange<Int64>?, lower: Int64, upper: Int64, attribute name: String,
                             value: (Int64) -> SQLValue) -> PredicateNode {
        guard let keys else { return .constant(false) }
        if keys.lowerBound == keys.upperBound { return .compare(attribute: name, .equal, value(keys.lowerBound)) }
        var parts: [PredicateNode] = []
        if keys.lowerBound > lower { parts.append(.compare(attribute: name, .greaterOrEqual, value(keys.lowerBound))) }
        if keys.upperBound < upper { parts.append(.compare(attribute: name, .lessOrEqual, value(keys.upperBound))) }
        if parts.isEmpty { return .compare(attribute: name, .notEqual, .null) }
        return FoundationPredicateLogic.and(parts)
    }

    private static func compare<T: Comparable>(_ a: T, _ op: ComparisonOperator, _ b: T) -> Bool {
        switch op {
        case .equal: return a == b
        case .notEqual: return a != b
        case .less: return a < b
        case .lessOrEqual: return a <= b
        case .greater: return a > b
        case .greaterOrEqual: return a >= b
        }
    }

    // MARK: Evaluating

    private func floatingValue<F: BinaryFloatingPoint>(_ x: F) -> F {
        var y = x
        for (step, _, real) in steps {
            let c = F(real)
            switch step {
            case .add: y = y + c
            case .subtract: y = y - c
            case .subtractFrom: y = c - y
            case .multiply: y = y * c
            case .divide: y = y / c
            case .negate: y = -y
            }
        }
        return y
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func integerValue(_ x: Int64) -> Int128? {
        var y = Int128(x)
        for (step, integer, _) in steps {
            let c = Int128(integer)
            let result: (partialValue: Int128, overflow: Bool)
            switch step {
            case .add: result = y.addingReportingOverflow(c)
            case .subtract: result = y.subtractingReportingOverflow(c)
            case .subtractFrom: result = c.subtractingReportingOverflow(y)
            case .multiply: result = y.multipliedReportingOverflow(by: c)
            case .divide: result = y.dividedReportingOverflow(by: c)
            case .negate: result = Int128(0).subtractingReportingOverflow(y)
            }
            if result.overflow { return nil }
            y = result.partialValue
        }
        return y
    }

    // MARK: Ordered keys of floating-point values

    /// Keys that order like the values: -inf < ... < -0 < +0 < ... < +inf, consecutive values
    /// having consecutive keys.
    private static func key(of value: Double) -> Int64 {
        let bits = Int64(bitPattern: value.bitPattern)
        return bits >= 0 ? bits : ~(bits & Int64.max)
    }

    private static func double(atKey key: Int64) -> Double {
        key >= 0 ? Double(bitPattern: UInt64(key)) : Double(bitPattern: UInt64(~key) | (1 << 63))
    }

    private static func key(of value: Float) -> Int32 {
        let bits = Int32(bitPattern: value.bitPattern)
        return bits >= 0 ? bits : ~(bits & Int32.max)
    }

    private static func float(atKey key: Int32) -> Float {
        key >= 0 ? Float(bitPattern: UInt32(key)) : Float(bitPattern: UInt32(~key) | (1 << 31))
    }
}
