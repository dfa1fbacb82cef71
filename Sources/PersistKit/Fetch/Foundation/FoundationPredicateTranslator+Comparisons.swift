import PersistKitText
import Foundation

// Bool expressions: logic, comparisons, string matching, membership, ranges.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension FoundationPredicateTranslator {
    // MARK: Logic

    func conjunction(_ lhs: any PredicateExpression, _ rhs: any PredicateExpression) throws -> FoundationPredicateTranslation {
        .predicate(Logic.and(try predicate(lhs), try predicate(rhs)))
    }

    func disjunction(_ lhs: any PredicateExpression, _ rhs: any PredicateExpression) throws -> FoundationPredicateTranslation {
        .predicate(Logic.or([try predicate(lhs), try predicate(rhs)]))
    }

    func negation(_ wrapped: any PredicateExpression) throws -> FoundationPredicateTranslation {
        .predicate(Logic.not(try predicate(wrapped)))
    }

    // MARK: Comparisons

    /// `lhs op rhs` for `==`, `!=`, `<`, `<=`, `>`, `>=`.
    func compare(_ expression: Any, _ lhs: any PredicateExpression, _ op: ComparisonOperator,
                 _ rhs: any PredicateExpression) throws -> FoundationPredicateTranslation {
        let left = try values(lhs), right = try values(rhs)
        return .predicate(try naming(expression) { try compare(left, op, right) })
    }

    func compare(_ left: [Case], _ op: ComparisonOperator, _ right: [Case]) throws -> PredicateNode {
        try pairs(left, right) { a, b in try compare(a, op, b) }
    }

    func compare(_ a: FoundationPredicateOperand, _ op: ComparisonOperator,
                 _ b: FoundationPredicateOperand) throws -> PredicateNode {
        switch (a, b) {
        case (.constant(let x), .constant(let y)):
            return .constant(try FoundationPredicateConstant.compare(x, op, y))
        case (.attribute(let operand), .constant(let value)):
            return try compare(operand, op, value)
        case (.constant(let value), .attribute(let operand)):
            return try compare(operand, op.flipped, value)
        case (.attribute, .attribute), (.computed, .constant), (.constant, .computed), (.computed, .attribute),
             (.attribute, .computed), (.computed, .computed):
            let (x, xKind) = try computed(a), (y, yKind) = try computed(b)
            guard xKind.comparable(with: yKind) else {
                throw PersistError(.invalidPredicate, "Comparing \(xKind.rawValue) with \(yKind.rawValue) is not supported")
            }
            return PredicateNode.comparing(x, .order(op), y)
        case (.object(let object), .constant(let value)):
            return try compare(object, op, value)
        case (.constant(let value), .object(let object)):
            return try compare(object, op.flipped, value)
        case (.count(let collection), .constant(let value)):
            return try compare(collection, op, value)
        case (.constant(let value), .count(let collection)):
            return try compare(collection, op.flipped, value)
        default:
            throw PersistError(.invalidPredicate,
                "Only an attribute, a related object or a to-many's count can be compared, and only with a value")
        }
    }

    /// A related object (or the element itself) compared with an object, its ObjectID, or nil.
    private func compare(_ object: FoundationPredicateOperand.RelatedObject, _ op: ComparisonOperator, _ value: Any?) throws -> PredicateNode {
        guard op == .equal || op == .notEqual else {
            throw PersistError(.invalidPredicate, "\(object.key.isEmpty ? "An object" : object.key) is compared with == or != only",
                               attribute: object.key)
        }
        return .compare(attribute: object.comparedKey, op, try reference(value, to: object))
    }

    /// How predicates refer to an object given as a constant.
    func reference(_ value: Any?, to object: FoundationPredicateOperand.RelatedObject) throws -> SQLValue {
        guard let value else { return .null }
        if let other = value as? ManagedObject, other.entity.name == object.entity.name { return .integer(other.storageReference) }
        if let id = value as? ObjectID, id.entityName == object.entity.name { return .integer(id.isTemporary ? -id.key : id.key) }
        throw PersistError(.invalidPredicate,
            "\(object.key.isEmpty ? "The object" : object.key) is a \(object.entity.name): compare it with a \(object.entity.name), its ObjectID or nil, "
            + "not a \(FoundationPredicateConstant.typeName(value))", attribute: object.key)
    }

    /// A to-many's count compared with a number.
    private func compare(_ collection: FoundationPredicateOperand.Collection, _ op: ComparisonOperator, _ value: Any?) throws -> PredicateNode {
        if FoundationPredicateConstant.isNaN(value) { return .constant(op == .notEqual) }
        let stored = try FoundationPredicateConstant.stored(value)
        switch stored {
        case .null?, .integer?, .real?: break
        default:
            throw PersistError(.invalidPredicate, "\(collection.path).count is compared with a number", attribute: collection.path)
        }
        guard let stored else {
            throw PersistError(.invalidPredicate, "\(collection.path).count is compared with a number", attribute: collection.path)
        }
        return .relationship(RelationshipPredicate(path: collection.path, kind: .count(.constant(true), op, stored)))
    }

    /// An attribute (perhaps through arithmetic) compared with a constant.
    func compare(_ operand: FoundationPredicateOperand.Attribute, _ op: ComparisonOperator, _ value: Any?) throws -> PredicateNode {
        if FoundationPredicateConstant.isNaN(value) { return .constant(op == .notEqual) }
        if let arithmetic = operand.arithmetic {
            return try arithmetic.node(op, value, attribute: operand.name)
        }
        if op != .equal && op != .notEqual && operand.attribute.type == .json {
            throw PersistError(.invalidPredicate,
                "Ordering comparisons of \(operand.name) are not supported: it is stored as JSON, which does not order like its values",
                attribute: operand.name)
        }
        guard let stored = try FoundationPredicateConstant.stored(value) else {
            throw PersistError(.invalidPredicate,
                "A \(FoundationPredicateConstant.typeName(value)) cannot be compared with \(operand.name)", attribute: operand.name)
        }
        return .compare(attribute: operand.name, op, stored)
    }

    // MARK: Strings

    /// `base.contains(pattern)` and `base.starts(with: pattern)` on strings: byte-exact, like the
    /// native `contains` and `beginsWith` without options.
    func text(_ expression: Any, _ op: TextMatchOperator, base: any PredicateExpression,
              pattern: any PredicateExpression) throws -> FoundationPredicateTranslation {
        let bases = try values(base), patterns = try values(pattern)
        return .predicate(try naming(expression) {
            try pairs(bases, patterns) { value, pattern in try text(op, value, pattern) }
        })
    }

    private func text(_ op: TextMatchOperator, _ value: FoundationPredicateOperand,
                      _ pattern: FoundationPredicateOperand) throws -> PredicateNode {
        if case .attribute(let patternOperand) = pattern, case .attribute(let operand) = value {
            // `$0.title.contains($0.notes)`: both string attributes.
            for side in [operand, patternOperand] where side.attribute.type != .string || side.arithmetic != nil {
                throw PersistError(.invalidPredicate, "\(side.name) is not a string attribute", attribute: side.name)
            }
            return .values(.key(operand.name), .text(op, []), .key(patternOperand.name))
        }
        guard case .constant(let patternValue) = pattern else {
            throw PersistError(.invalidPredicate, "The string searched for must be a value or a string attribute")
        }
        guard let patternText = patternValue as? String else { return .constant(false) }
        switch value {
        case .constant(let text):
            guard let text = text as? String else { return .constant(false) }
            return .constant(TextMatcher.matches(op, value: text, pattern: patternText, options: []))
        case .attribute(let operand):
            guard operand.attribute.type == .string, operand.arithmetic == nil else {
                throw PersistError(.invalidPredicate, "\(operand.name) is not a string attribute", attribute: operand.name)
            }
            return .text(attribute: operand.name, op, patternText, [])
        default:
            throw PersistError(.invalidPredicate, "Only a string attribute can be searched")
        }
    }

    // MARK: Membership

    /// `[1, 2].contains($0.priority)`: the element among a constant sequence's elements.
    func membership(_ expression: Any, sequence: any PredicateExpression,
                    element: any PredicateExpression) throws -> FoundationPredicateTranslation {
        let sequences = try values(sequence), elements = try values(element)
        return .predicate(try naming(expression) {
            try pairs(sequences, elements) { sequence, element in
                if case .collection(let collection) = sequence {
                    // `$0.tags.contains(tag)`: the object is one of the to-many's.
                    guard case .constant(let value) = element else {
                        throw PersistError(.invalidPredicate, "contains(_:) on \(collection.path) is supported with an object, not an attribute")
                    }
                    let me = FoundationPredicateOperand.RelatedObject(entity: collection.destination, key: "", isNonNil: true)
                    let inner = PredicateNode.compare(attribute: PredicateKey.selfKey, .equal, try reference(value, to: me))
                    return .relationship(RelationshipPredicate(path: collection.path, kind: .any(inner)))
                }
                guard case .constant(let sequenceValue) = sequence,
                      let members = FoundationPredicateConstant.elements(sequenceValue) else {
                    throw PersistError(.invalidPredicate, "contains(_:) is supported on a sequence of values, not on an attribute")
                }
                return try membership(element, members)
            }
        })
    }

    private func membership(_ element: FoundationPredicateOperand, _ members: [Any?]) throws -> PredicateNode {
        let members = members.filter { !FoundationPredicateConstant.isNaN($0) }
        switch element {
        case .constant(let value):
            return .constant(try members.contains { try FoundationPredicateConstant.compare(value, .equal, $0) })
        case .attribute(let operand) where operand.arithmetic == nil:
            let stored = try members.map { member -> SQLValue in
                guard let stored = try FoundationPredicateConstant.stored(member) else {
                    throw PersistError(.invalidPredicate,
                        "A \(FoundationPredicateConstant.typeName(member)) cannot be compared with \(operand.name)",
                        attribute: operand.name)
                }
                return stored
            }
            return .inList(attribute: operand.name, stored)
        case .attribute(let operand):
            return Logic.or(try members.map { try compare(operand, .equal, $0) })
        case .object(let object):
            return .inList(attribute: object.comparedKey, try members.map { try reference($0, to: object) })
        case .computed:
            return Logic.or(try members.map { try compare(element, .equal, .constant($0)) })
        case .collection, .count:
            throw PersistError(.invalidPredicate, "A to-many is not among values: use contains(_:) on it")
        }
    }

    // MARK: Ranges

    /// `(lower...upper).contains(element)` with bounds given as expressions; nil is unbounded.
    func rangeContains(_ expression: Any, element: any PredicateExpression, lower: (any PredicateExpression)?,
                       upper: (any PredicateExpression)?, closed: Bool) throws -> FoundationPredicateTranslation {
        let elements = try values(element)
        let lowers = try lower.map { try values($0) }, uppers = try upper.map { try values($0) }
        return .predicate(try naming(expression) { try rangeContains(elements, lowers, uppers, closed: closed) })
    }

    /// `range.contains(element)` with a constant range (`let soon = 1..<5`).
    func rangeContains(_ expression: Any, element: any PredicateExpression,
                       range: any PredicateExpression) throws -> FoundationPredicateTranslation {
        let elements = try values(element), ranges = try values(range)
        return .predicate(try naming(expression) {
            try Logic.or(ranges.map { item in
                guard case .constant(let value) = item.value, let range = value as? any FoundationPredicateRangeValue else {
                    throw PersistError(.invalidPredicate, "contains(_:) is supported on a range of values, not on an attribute")
                }
                let lowers = range.lowerBoundValue.map { [Case.always(.value($0))] }
                let uppers = range.upperBoundValue.map { [Case.always(.value($0))] }
                return Logic.and(item.condition, try rangeContains(elements, lowers, uppers, closed: range.includesUpperBound))
            })
        })
    }

    private func rangeContains(_ elements: [Case], _ lowers: [Case]?, _ uppers: [Case]?, closed: Bool) throws -> PredicateNode {
        var parts: [PredicateNode] = []
        if let lowers { parts.append(try compare(elements, .greaterOrEqual, lowers)) }
        if let uppers { parts.append(try compare(elements, closed ? .lessOrEqual : .less, uppers)) }
        // An unbounded range still needs a value: nil is in no range.
        if parts.isEmpty { parts.append(try compare(elements, .notEqual, [.always(.constant(nil))])) }
        return Logic.and(parts)
    }
}
