import Foundation

/// A Foundation `PredicateExpressions` type that ``FoundationPredicateTranslator`` understands:
/// it hands its operands, with their static types, back to the translator. Types that do not
/// conform are reported by name as not supported.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
protocol FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation
}

// MARK: Values

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.Value: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        .values([.always(.value(value))])
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.NilLiteral: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        .values([.always(.constant(nil))])
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.Variable: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        try translator.variable(self, key)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.KeyPath: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        try translator.keyPath(self, root: root, keyPath: keyPath)
    }
}

// MARK: Logic

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.Conjunction: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        try translator.conjunction(lhs, rhs)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.Disjunction: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        try translator.disjunction(lhs, rhs)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.Negation: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        try translator.negation(wrapped)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.Conditional: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        try translator.conditional(test, trueBranch, falseBranch)
    }
}

// MARK: Comparisons

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.Equal: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        try translator.compare(self, lhs, .equal, rhs)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.NotEqual: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        try translator.compare(self, lhs, .notEqual, rhs)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.Comparison: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        let comparison: ComparisonOperator
        switch op {
        case .lessThan: comparison = .less
        case .lessThanOrEqual: comparison = .lessOrEqual
        case .greaterThan: comparison = .greater
        case .greaterThanOrEqual: comparison = .greaterOrEqual
        @unknown default: throw translator.unsupported(self, "with operator \(op)")
        }
        return try translator.compare(self, lhs, comparison, rhs)
    }
}

// MARK: Strings and sequences

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.CollectionContainsCollection: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        guard Base.Output.self == String.self, Other.Output.self == String.self else {
            throw translator.unsupported(self, "on \(Base.Output.self)")
        }
        return try translator.text(self, .contains, base: base, pattern: other)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.SequenceStartsWith: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        guard Base.Output.self == String.self, Prefix.Output.self == String.self else {
            throw translator.unsupported(self, "on \(Base.Output.self)")
        }
        return try translator.text(self, .beginsWith, base: base, pattern: prefix)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.SequenceContains: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        try translator.membership(self, sequence: sequence, element: element)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.RangeExpressionContains: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        if let bounds = range as? any FoundationPredicateRangeBounds {
            return try translator.rangeContains(self, element: element, lower: bounds.lowerExpression,
                                                upper: bounds.upperExpression, closed: bounds.includesUpperBound)
        }
        return try translator.rangeContains(self, element: element, range: range)
    }
}

// MARK: Optionals

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.NilCoalesce: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        try translator.nilCoalescing(lhs, rhs)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.ForcedUnwrap: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        try translator.forcedUnwrap(inner)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.OptionalFlatMap: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        try translator.flatMap(wrapped, variable: variable.key, transform: transform)
    }
}

// MARK: Arithmetic

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.Arithmetic: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        let operation: FoundationPredicateArithmetic.Operation
        switch op {
        case .add: operation = .add
        case .subtract: operation = .subtract
        case .multiply: operation = .multiply
        @unknown default: throw translator.unsupported(self, "with operator \(op)")
        }
        return try translator.arithmetic(self, lhs, operation, rhs)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.IntDivision: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        try translator.arithmetic(self, lhs, .divide, rhs)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.FloatDivision: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        try translator.arithmetic(self, lhs, .divide, rhs)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.IntRemainder: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        try translator.arithmetic(self, lhs, .remainder, rhs)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.UnaryMinus: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        try translator.negation(self, arithmetic: wrapped)
    }
}

// MARK: Supported on values only

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.SequenceMaximum: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        try translator.constant(self, operands: [elements])
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.SequenceMinimum: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        try translator.constant(self, operands: [elements])
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.DictionaryKeySubscript: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        try translator.constant(self, operands: [wrapped, key])
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.DictionaryKeyDefaultValueSubscript: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        try translator.constant(self, operands: [wrapped, key, `default`])
    }
}

// MARK: To-manys

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.SequenceContainsWhere: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        try translator.quantified(self, sequence: sequence, variable: variable.key, test: test, all: false)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.SequenceAllSatisfy: FoundationPredicateExpression {
    func translate<Input: ManagedObject>(with translator: FoundationPredicateTranslator<Input>) throws -> FoundationPredicateTranslation {
        try translator.quantified(self, sequence: sequence, variable: variable.key, test: test, all: true)
    }
}
