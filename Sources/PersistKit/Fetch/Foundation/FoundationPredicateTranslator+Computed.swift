import Foundation

// Comparisons and arithmetic of two attributes in `#Predicate` (`$0.completedAt > $0.due`,
// `$0.budget - $0.spent < 0`): the shared ``PredicateValue`` node, with SQLite's arithmetic, as
// format strings build it.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension FoundationPredicateTranslator {
    /// An operand as one side of a comparison of computed values, and its kind. Swift's types
    /// already match the sides; a date is its seconds here, as its `timeIntervalSince1970`
    /// and `timeIntervalSinceReferenceDate` views read it.
    func computed(_ operand: FoundationPredicateOperand) throws -> (PredicateValue, PredicateValue.Kind) {
        let (value, kind) = try computedValue(operand)
        return (value, kind == .date ? .number : kind)
    }

    private func computedValue(_ operand: FoundationPredicateOperand) throws -> (PredicateValue, PredicateValue.Kind) {
        switch operand {
        case .constant(let value):
            guard let value, !FoundationPredicateConstant.isNaN(value) else { return (.constant(.null), .null) }
            guard let attributeValue = value as? any AttributeValue, let stored = try FoundationPredicateConstant.stored(value) else {
                throw PersistError(.invalidPredicate,
                    "A \(FoundationPredicateConstant.typeName(value)) cannot be compared with an attribute or computed with")
            }
            return (.constant(stored), PredicateValue.Kind(type(of: attributeValue).attributeType))
        case .attribute(let attribute):
            return (attribute.arithmetic?.applied(to: .key(attribute.name)) ?? .key(attribute.name), PredicateValue.Kind(attribute.attribute.type))
        case .computed(let value, let kind):
            return (value, kind)
        case .object(let object):
            throw PersistError(.invalidPredicate,
                "\(object.key.isEmpty ? "The object" : object.key) is an object: only attributes are compared with attributes or computed with",
                attribute: object.key)
        case .collection(let collection), .count(let collection):
            throw PersistError(.invalidPredicate,
                "\(collection.path) is a to-many: its count is compared with a value only, and its objects through contains(where:)",
                attribute: collection.path)
        }
    }
}

extension ArithmeticOperator {
    /// The operator of a `#Predicate` arithmetic step; nil for the remainder.
    init?(_ operation: FoundationPredicateArithmetic.Operation) {
        switch operation {
        case .add: self = .add
        case .subtract: self = .subtract
        case .multiply: self = .multiply
        case .divide: self = .divide
        case .remainder: return nil
        }
    }
}
