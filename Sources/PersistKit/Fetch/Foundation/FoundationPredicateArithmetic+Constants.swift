import Foundation

extension FoundationPredicateArithmetic {
    /// `a op b` for two constants of the same numeric type, as Swift computes it, except that
    /// what would trap (integer overflow, integer division by zero) is an error instead.
    static func fold(_ a: Any?, _ operation: Operation, _ b: Any?) throws -> Any {
        guard let a, let b else { throw PersistError(.invalidPredicate, "Arithmetic on nil") }
        if let integer = a as? any FixedWidthInteger { return try foldInteger(integer, operation, b) }
        if let real = a as? any BinaryFloatingPoint { return try foldFloatingPoint(real, operation, b) }
        if let number = a as? any Numeric { return try foldNumeric(number, operation, b) }
        throw PersistError(.invalidPredicate, "Arithmetic on a \(type(of: a)) is not supported")
    }

    /// `-a` for a constant.
    static func negated(_ a: Any?) throws -> Any {
        guard let a else { throw PersistError(.invalidPredicate, "Arithmetic on nil") }
        if let integer = a as? any FixedWidthInteger { return try negatedInteger(integer) }
        if let number = a as? any SignedNumeric { return negatedNumber(number) }
        throw PersistError(.invalidPredicate, "Negating a \(type(of: a)) is not supported")
    }

    private static func same<T>(_ b: Any, as _: T.Type) throws -> T {
        guard let typed = b as? T else {
            throw PersistError(.invalidPredicate, "Arithmetic between \(T.self) and \(type(of: b)) is not supported")
        }
        return typed
    }

    private static func foldInteger<T: FixedWidthInteger>(_ a: T, _ operation: Operation, _ b: Any) throws -> T {
        let b = try same(b, as: T.self)
        let result: (partialValue: T, overflow: Bool)
        switch operation {
        case .add: result = a.addingReportingOverflow(b)
        case .subtract: result = a.subtractingReportingOverflow(b)
        case .multiply: result = a.multipliedReportingOverflow(by: b)
        case .divide, .remainder:
            if b == 0 { throw PersistError(.invalidPredicate, "Division by zero in \(a) \(operation.rawValue) \(b)") }
            result = operation == .divide ? a.dividedReportingOverflow(by: b) : a.remainderReportingOverflow(dividingBy: b)
        }
        if result.overflow {
            throw PersistError(.invalidPredicate, "\(a) \(operation.rawValue) \(b) overflows \(T.self)")
        }
        return result.partialValue
    }

    private static func foldFloatingPoint<T: BinaryFloatingPoint>(_ a: T, _ operation: Operation, _ b: Any) throws -> T {
        let b = try same(b, as: T.self)
        switch operation {
        case .add: return a + b
        case .subtract: return a - b
        case .multiply: return a * b
        case .divide: return a / b
        case .remainder: return a.truncatingRemainder(dividingBy: b)
        }
    }

    private static func foldNumeric<T: Numeric>(_ a: T, _ operation: Operation, _ b: Any) throws -> T {
        let b = try same(b, as: T.self)
        switch operation {
        case .add: return a + b
        case .subtract: return a - b
        case .multiply: return a * b
        case .divide, .remainder:
            throw PersistError(.invalidPredicate, "Division of \(T.self) values is not supported")
        }
    }

    private static func negatedInteger<T: FixedWidthInteger>(_ a: T) throws -> T {
        let result = T.zero.subtractingReportingOverflow(a)
        if result.overflow { throw PersistError(.invalidPredicate, "-(\(a)) overflows \(T.self)") }
        return result.partialValue
    }

    private static func negatedNumber<T: SignedNumeric>(_ a: T) -> T { -a }
}
