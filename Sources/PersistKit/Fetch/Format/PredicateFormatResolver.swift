import PersistKitText
import Foundation

/// Resolves a parsed format string against an entity: keys become attributes, arguments and
/// literals become stored values of the attribute's type.
///
/// Groups of any depth (the parser bounds it) and width are resolved with an explicit stack;
/// only SUBQUERY recurses (at most ``PredicateFormatParser/maximumSubqueryNesting`` deep).
struct PredicateFormatResolver {
    let format: String
    let arguments: [Any]
    /// The entity keys resolve against: the predicate's, or a SUBQUERY's destination.
    let entity: EntityDescription
    /// The variable of the innermost SUBQUERY being resolved (`$t`), if any.
    var variable: String?

    init(format: String, arguments: [Any], entity: EntityDescription, variable: String? = nil) {
        self.format = format
        self.arguments = arguments
        self.entity = entity
        self.variable = variable
    }

    /// The tree resolved, with an explicit stack: groups nest as deeply as the parser allows
    /// (``PredicateFormatParser/maximumNesting``), more than a thread's stack should pay for in
    /// frames of this size. Comparisons are resolved in written order, so the first error is the
    /// first one written.
    func resolve(_ expression: PredicateFormatExpression) throws -> PredicateNode {
        enum Step { case visit(PredicateFormatExpression), and(Int), or(Int), not }
        var steps: [Step] = [.visit(expression)]
        var results: [PredicateNode] = []
        while let step = steps.popLast() {
            switch step {
            case .visit(let expression):
                switch expression {
                case .truePredicate: results.append(.constant(true))
                case .falsePredicate: results.append(.constant(false))
                case .and(let terms):
                    steps.append(.and(terms.count))
                    steps.append(contentsOf: terms.reversed().lazy.map { .visit($0) })
                case .or(let terms):
                    steps.append(.or(terms.count))
                    steps.append(contentsOf: terms.reversed().lazy.map { .visit($0) })
                case .not(let inner):
                    steps.append(.not)
                    steps.append(.visit(inner))
                case .comparison(let lhs, let op, let options, let rhs, let position):
                    results.append(try comparison(lhs, op, options, rhs, position))
                }
            case .and(let count):
                let children = Array(results.suffix(count))
                results.removeLast(count)
                results.append(.and(children))
            case .or(let count):
                let children = Array(results.suffix(count))
                results.removeLast(count)
                results.append(.or(children))
            case .not:
                if let inner = results.popLast() { results.append(.not(inner)) }
            }
        }
        return results.last ?? .constant(true)
    }

    func fail(_ message: String, at position: Int, attribute: String? = nil) -> PersistError {
        var error = PersistError(.invalidPredicate, "\(message) at position \(position) in predicate format \"\(format)\"",
                                 entity: entity.name, attribute: attribute)
        error.position = position
        return error
    }

    private func comparison(_ lhs: PredicateFormatOperand, _ op: PredicateFormatOperator,
                            _ options: StringComparisonOptions, _ rhs: PredicateFormatOperand,
                            _ position: Int) throws -> PredicateNode {
        if Self.comparesValues(lhs, rhs) { return try valueComparison(lhs, op, options, rhs, at: position) }
        if let test = try entityTest(lhs, op, rhs, at: position) { return test }
        let left = try subject(lhs), right = try subject(rhs)
        let subject: Subject, value: PredicateFormatValue, flipped: Bool
        switch (left, right) {
        case (.some(let found), nil):
            guard case .value(let constant, _) = rhs else { throw fail("A comparison needs a value on one side", at: position) }
            (subject, value, flipped) = (found, constant, false)
        case (nil, .some(let found)):
            guard case .value(let constant, _) = lhs else { throw fail("A comparison needs a value on one side", at: position) }
            (subject, value, flipped) = (found, constant, true)
        case (.some, .some):
            // `comparesValues` takes every comparison of two keys.
            throw fail("A comparison needs a value on one side", at: position)
        case (nil, nil):
            throw fail("A comparison needs a key on one side", at: position)
        }
        return try comparison(subject, op, options, flipped: flipped, value: value, at: position)
    }

    /// The node comparing a plain (or dotted, through to-ones) key with a value.
    func attributeComparison(_ attribute: AttributeDescription, key: String, _ op: PredicateFormatOperator,
                             _ options: StringComparisonOptions, flipped: Bool, value: PredicateFormatValue,
                             at position: Int) throws -> PredicateNode {
        if case .variable(let name) = value {
            try checkOperator(op, options, flipped: flipped, for: attribute, at: position)
            return .variable(PredicateVariable(name: name, attribute: key, op: op, options: options, flipped: flipped,
                                               position: position, format: format, entity: entity))
        }
        return try node(attribute, key: key, op, options, flipped: flipped, value: try swiftValue(value, at: position), at: position)
    }

    /// What the operator allows whatever the value: checked at once for a `$VARIABLE`, whose
    /// value comes later.
    func checkOperator(_ op: PredicateFormatOperator, _ options: StringComparisonOptions, flipped: Bool,
                               for attribute: AttributeDescription, at position: Int) throws {
        let key = attribute.name
        switch op {
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .between:
            if op == .between && flipped { throw fail("BETWEEN needs the key on its left", at: position) }
            guard !options.isEmpty else { return }
            guard op == .equal || op == .notEqual else {
                let shown = op == .between ? ">=" : op.rawValue
                throw fail("[c] and [d] apply to ==, !=, CONTAINS, BEGINSWITH, ENDSWITH, LIKE and MATCHES, not \(shown)", at: position)
            }
            guard attribute.type == .string else {
                throw fail("[c] and [d] need a string attribute; \(key) is \(attribute.type.rawValue)", at: position, attribute: key)
            }
        case .contains, .beginsWith, .endsWith, .like, .matches:
            if flipped { throw fail("\(op.rawValue) needs the key on its left", at: position) }
            guard attribute.type == .string else {
                throw fail("\(op.rawValue) needs a string attribute; \(key) is \(attribute.type.rawValue)", at: position, attribute: key)
            }
        case .in:
            if flipped { throw fail("IN with the key on its right (a to-many relationship) is not supported", at: position) }
            if !options.isEmpty { throw fail("[c] and [d] are not supported with IN", at: position) }
        }
    }

    /// The node comparing `attribute` with a Swift value (an argument, a literal, or a
    /// variable's substituted value).
    func node(_ attribute: AttributeDescription, key: String? = nil, _ op: PredicateFormatOperator, _ options: StringComparisonOptions,
              flipped: Bool, value swift: Any?, at position: Int) throws -> PredicateNode {
        try checkOperator(op, options, flipped: flipped, for: attribute, at: position)
        let key = key ?? attribute.name
        switch op {
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            let comparisonOperator = try comparisonOperator(op)
            let stored = try scalar(swift, for: attribute, at: position)
            if op == .equal || op == .notEqual { try checkCase(stored, of: attribute, key: key, at: position) }
            if !options.isEmpty {
                guard case .text(let text) = stored else { return .constant(op == .notEqual && !stored.isNull ? true : (op == .notEqual)) }
                let node = PredicateNode.text(attribute: key, .equal, text, options)
                return op == .equal ? node : .not(node)
            }
            return .compare(attribute: key, flipped ? comparisonOperator.flipped : comparisonOperator, stored)
        case .contains, .beginsWith, .endsWith, .like:
            let stored = try scalar(swift, for: attribute, at: position)
            guard case .text(let pattern) = stored else { return .constant(false) }
            return .text(attribute: key, op.textMatchOperator, pattern, options)
        case .matches:
            let stored = try scalar(swift, for: attribute, at: position)
            guard case .text(let pattern) = stored else { return .constant(false) }
            do {
                return .matches(attribute: key, try PredicateRegex(pattern: pattern, options: options))
            } catch {
                throw fail(error.message, at: position, attribute: key)
            }
        case .in:
            return .inList(attribute: key, try list(swift, for: attribute, key: key, at: position))
        case .between:
            guard let swift, !(swift is String), let bounds = elements(of: swift), bounds.count == 2,
                  let low = bounds.first, let high = bounds.last else {
                throw fail("BETWEEN needs two bounds: an array [low, high], not \(ModelValueCoding.typeName(of: swift))",
                           at: position, attribute: key)
            }
            return .and([try node(attribute, key: key, .greaterOrEqual, options, flipped: false, value: low, at: position),
                         try node(attribute, key: key, .lessOrEqual, options, flipped: false, value: high, at: position)])
        }
    }

    func comparisonOperator(_ op: PredicateFormatOperator) throws -> ComparisonOperator {
        switch op {
        case .equal: return .equal
        case .notEqual: return .notEqual
        case .less: return .less
        case .lessOrEqual: return .lessOrEqual
        case .greater: return .greater
        default: return .greaterOrEqual
        }
    }

    /// A constant as a Swift value (arguments looked up).
    func swiftValue(_ value: PredicateFormatValue, at position: Int) throws -> Any? {
        switch value {
        case .null: return nil
        case .bool(let b): return b
        case .integer(let i): return i
        case .double(let d): return d
        case .string(let s): return s
        case .argument(let index):
            guard index >= 0, index < arguments.count else {
                throw fail("Missing argument \(index + 1) for %@", at: position)
            }
            return arguments[index]
        case .list(let values):
            // One level only (no attribute holds a list), so nesting costs no recursion.
            return try values.map { value -> Any? in
                if case .list = value { throw fail("A list inside a list cannot be compared with an attribute", at: position) }
                return try swiftValue(value, at: position)
            }
        case .variable(let name):
            // The parser admits variables only as whole operands, which `comparison` handles.
            throw fail("The variable $\(name) cannot be used here", at: position)
        }
    }

    private func scalar(_ swift: Any?, for attribute: AttributeDescription, at position: Int) throws -> SQLValue {
        if let swift, !(swift is String), !(swift is Data), isCollection(swift) {
            throw fail("A list cannot be compared with \(attribute.name) (use IN)", at: position, attribute: attribute.name)
        }
        return try stored(swift, for: attribute, at: position)
    }

    func stored(_ swift: Any?, for attribute: AttributeDescription, at position: Int) throws -> SQLValue {
        // Numbers compare across integer and real, as in SQLite.
        if attribute.type.columnType == "INTEGER", attribute.type != .boolean {
            if let double = swift as? Double { return .real(double) }
            if let float = swift as? Float { return .real(Double(float)) }
        }
        guard let stored = ModelValueCoding.storedValue(from: swift, type: attribute.type) else {
            throw fail("\(ModelValueCoding.typeName(of: swift)) value \(String(describing: swift ?? "nil")) does not fit \(attribute.name), \(attribute.type.nameWithArticle) attribute",
                       at: position, attribute: attribute.name)
        }
        return stored
    }

    private func list(_ swift: Any?, for attribute: AttributeDescription, key: String, at position: Int) throws -> [SQLValue] {
        guard let swift, !(swift is String), let elements = elements(of: swift) else {
            throw fail("IN needs a list or a collection, not \(ModelValueCoding.typeName(of: swift))", at: position, attribute: attribute.name)
        }
        return try elements.map { element in
            let value = try stored(element, for: attribute, at: position)
            try checkCase(value, of: attribute, key: key, at: position)
            return value
        }
    }

    /// Refuses a raw value an enum attribute cannot hold (`genre == 'poetry'` when `Genre` has
    /// no such case), as any other value that does not fit its attribute: equal to nothing,
    /// it is a mistake, not a question. Ordering comparisons (`priority < 5`) stay allowed.
    private func checkCase(_ stored: SQLValue, of attribute: AttributeDescription, key: String, at position: Int) throws {
        // The Swift type is known for entities declared by a class, not for document models.
        guard !stored.isNull, let owner = try? PredicateKey.resolve(key, in: entity).entity,
              attribute.index < owner.valueTypes.count, let valueType = owner.valueTypes[attribute.index] else { return }
        let type = (valueType as? any OptionalWrappedType.Type)?.wrappedType ?? valueType
        guard type is any RawRepresentable.Type else { return }
        // A whole number given as a Double is compared by value, as SQLite does.
        var candidate = stored
        if case .real(let number) = stored, let integer = Int64(exactly: number) { candidate = .integer(integer) }
        guard valueType.init(storedValue: candidate) == nil else { return }
        let cases = (type as? any CaseIterable.Type).map { Self.storedCases(of: $0) } ?? []
        throw fail("\(stored) is not a raw value of \(type), the type of \(attribute.name)"
                   + (cases.isEmpty ? "" : " (its values are \(cases.joined(separator: ", ")))"),
                   at: position, attribute: attribute.name)
    }

    private static func storedCases<T: CaseIterable>(of type: T.Type) -> [String] {
        T.allCases.prefix(20).compactMap { value in
            (try? (value as? any AttributeValue)?.makeStoredValue()).map { "\($0)" }
        }
    }

    private func isCollection(_ value: Any) -> Bool { elements(of: value) != nil }

    func elements(of value: Any) -> [Any?]? {
        if value is String || value is Data { return nil }
        guard let sequence = value as? any Sequence else { return nil }
        return Self.collect(sequence)
    }

    private static func collect(_ sequence: some Sequence) -> [Any?] {
        sequence.map { $0 as Any? }
    }
}
