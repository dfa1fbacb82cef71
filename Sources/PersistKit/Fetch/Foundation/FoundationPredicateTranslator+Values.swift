import Foundation

// Value expressions: variables, arithmetic, optionals, conditionals, constant-only expressions.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension FoundationPredicateTranslator {
    /// A closure's variable (the predicate's own input is only usable through its key paths).
    func variable(_ expression: Any, _ key: PredicateExpressions.VariableID) throws -> FoundationPredicateTranslation {
        if let value = bound[key] { return .values([.always(value)]) }
        if key == input {
            // The object itself (`$0 == task`, or a to-many's element inside `contains(where:)`).
            return .values([.always(.object(FoundationPredicateOperand.RelatedObject(entity: entity, key: "", isNonNil: true)))])
        }
        throw unsupported(expression, "that is not bound")
    }

    // MARK: Arithmetic

    /// `lhs + rhs`, `-`, `*`, `/`, `%`: constants are computed now; an attribute with a constant
    /// becomes ``FoundationPredicateArithmetic``.
    func arithmetic(_ expression: Any, _ lhs: any PredicateExpression, _ operation: FoundationPredicateArithmetic.Operation,
                    _ rhs: any PredicateExpression) throws -> FoundationPredicateTranslation {
        let left = try values(lhs), right = try values(rhs)
        var cases: [Case] = []
        for l in left {
            for r in right {
                let condition = Logic.and(l.condition, r.condition)
                if Logic.isFalse(condition) { continue }
                let value = try naming(expression) { try arithmetic(l.value, operation, r.value) }
                cases.append(Case(condition, value))
            }
        }
        return .values(cases)
    }

    private func arithmetic(_ a: FoundationPredicateOperand, _ operation: FoundationPredicateArithmetic.Operation,
                            _ b: FoundationPredicateOperand) throws -> FoundationPredicateOperand {
        switch (a, b) {
        case (.constant(let x), .constant(let y)):
            return .value(try FoundationPredicateArithmetic.fold(x, operation, y))
        case (.attribute(let operand), .constant(let value)):
            return .attribute(try appending(operand) { try $0.append(operation, value, constantFirst: false) })
        case (.constant(let value), .attribute(let operand)):
            return .attribute(try appending(operand) { try $0.append(operation, value, constantFirst: true) })
        case (.attribute, .attribute), (.computed, _), (_, .computed):
            guard let op = ArithmeticOperator(operation) else {
                throw PersistError(.invalidPredicate, "The remainder (%) is supported on an attribute and values only, not on two attributes")
            }
            let (x, xKind) = try computed(a), (y, yKind) = try computed(b)
            switch PredicateValue.Kind.of(op, xKind, yKind) {
            case .success(let kind): return .computed(.arithmetic(op, x, y), kind)
            case .failure(let problem): throw PersistError(.invalidPredicate, problem.message)
            }
        default:
            throw PersistError(.invalidPredicate, "Arithmetic is supported on an attribute and values, not on related objects or counts")
        }
    }

    /// `-value`.
    func negation(_ expression: Any, arithmetic wrapped: any PredicateExpression) throws -> FoundationPredicateTranslation {
        .values(try values(wrapped).map { item in
            switch item.value {
            case .constant(let value):
                return Case(item.condition, .value(try naming(expression) { try FoundationPredicateArithmetic.negated(value) }))
            case .attribute(let operand):
                return Case(item.condition, .attribute(try naming(expression) { try appending(operand) { $0.negate() } }))
            case .computed(let value, let kind):
                guard kind == .number || kind == .null else { throw unsupported(expression, "on \(kind.rawValue)") }
                return Case(item.condition, .computed(.negated(value), kind))
            default:
                throw unsupported(expression, "on a related object or a count")
            }
        })
    }

    private func appending(_ operand: FoundationPredicateOperand.Attribute,
                           _ change: (inout FoundationPredicateArithmetic) throws -> Void) throws -> FoundationPredicateOperand.Attribute {
        guard var arithmetic = operand.arithmetic ?? FoundationPredicateArithmetic(type: operand.attribute.type) else {
            throw PersistError(.invalidPredicate,
                "Arithmetic on \(operand.name), \(operand.attribute.type.nameWithArticle) attribute, is not supported",
                attribute: operand.name)
        }
        try change(&arithmetic)
        var result = operand
        result.arithmetic = arithmetic
        return result
    }

    // MARK: Optionals

    /// `lhs ?? rhs`: the right side's values where the left side is nil.
    func nilCoalescing(_ lhs: any PredicateExpression, _ rhs: any PredicateExpression) throws -> FoundationPredicateTranslation {
        let fallback = try values(rhs)
        var cases: [Case] = []
        for item in try values(lhs) {
            let (present, absent) = split(item)
            cases += present.map { [$0] } ?? []
            if let absent { cases += conditioned(fallback, on: absent) }
        }
        return .values(cases)
    }

    /// `value!`: the non-nil values; where the value is nil, no case holds, so a comparison that
    /// reads it is false (Foundation would throw; SQL has no such thing).
    func forcedUnwrap(_ inner: any PredicateExpression) throws -> FoundationPredicateTranslation {
        .values(try values(inner).compactMap { split($0).present })
    }

    /// `wrapped.flatMap { transform }` (and optional chaining, `$0.notes?.count`): nil where
    /// `wrapped` is nil, else the transform with its variable bound to the value.
    func flatMap(_ wrapped: any PredicateExpression, variable: PredicateExpressions.VariableID,
                 transform: any PredicateExpression) throws -> FoundationPredicateTranslation {
        var cases: [Case] = []
        for item in try values(wrapped) {
            let (present, absent) = split(item)
            if let absent { cases.append(Case(absent, .constant(nil))) }
            if let present {
                let inner = try binding(variable, to: present.value).values(transform)
                cases += conditioned(inner, on: present.condition)
            }
        }
        return .values(cases)
    }

    /// A case split into where its value is not nil (the value, known non-nil) and where it is
    /// nil (the condition only).
    private func split(_ item: Case) -> (present: Case?, absent: PredicateNode?) {
        switch item.value {
        case .constant(nil): return (nil, item.condition)
        case .constant: return (item, nil)
        case .attribute(let operand) where operand.isNonNil: return (item, nil)
        case .attribute(let operand):
            let present = Case(Logic.and(item.condition, operand.isNotNull), .attribute(operand.nonNil))
            let absent = Logic.and(item.condition, operand.isNull)
            return (present, absent)
        case .object(let object) where object.isNonNil: return (item, nil)
        case .object(var object):
            let isNull = PredicateNode.compare(attribute: object.comparedKey, .equal, .null)
            object.isNonNil = true
            return (Case(Logic.and(item.condition, Logic.not(isNull)), .object(object)), Logic.and(item.condition, isNull))
        case .collection, .count, .computed: return (item, nil)
        }
    }

    private func conditioned(_ cases: [Case], on condition: PredicateNode) -> [Case] {
        cases.compactMap { item in
            let combined = Logic.and(condition, item.condition)
            return Logic.isFalse(combined) ? nil : Case(combined, item.value)
        }
    }

    // MARK: Conditionals

    /// `test ? a : b`.
    func conditional(_ test: any PredicateExpression, _ trueBranch: any PredicateExpression,
                     _ falseBranch: any PredicateExpression) throws -> FoundationPredicateTranslation {
        let condition = try predicate(test)
        return .values(conditioned(try values(trueBranch), on: condition)
                       + conditioned(try values(falseBranch), on: Logic.not(condition)))
    }

    // MARK: Constant-only expressions

    /// An expression supported only on values (`values.max()`): evaluated now by Foundation
    /// once every operand is known to be a constant (so its evaluation cannot trap on an
    /// attribute's value).
    func constant<E: PredicateExpression>(_ expression: E, operands: [any PredicateExpression]) throws -> FoundationPredicateTranslation {
        for operand in operands {
            let cases = try values(operand)
            guard cases.count == 1, case .constant(true) = cases[0].condition, case .constant = cases[0].value else {
                throw unsupported(expression, "on an attribute")
            }
        }
        do {
            return .values([.always(.value(try expression.evaluate(PredicateBindings())))])
        } catch {
            throw unsupported(expression, "here (\(error))")
        }
    }
}
