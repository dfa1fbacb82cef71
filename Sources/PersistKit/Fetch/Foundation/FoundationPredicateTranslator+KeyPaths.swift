import Foundation

// Key paths: `$0.due` is an attribute; a key path on a value is applied now; a few key paths on
// attributes are views of the stored value (`$0.due!.timeIntervalSinceReferenceDate`,
// `$0.priority.rawValue`).
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension FoundationPredicateTranslator {
    /// `root.keyPath`: an attribute or relationship when `root` is the predicate's input (or a
    /// related object), else the key path applied to each value `root` takes.
    func keyPath<Root: PredicateExpression, Value>(_ expression: Any, root: Root,
                                                   keyPath: any KeyPath<Root.Output, Value> & Sendable) throws -> FoundationPredicateTranslation {
        if let variable = root as? any FoundationPredicateVariable, variable.variableKey == input {
            let me = FoundationPredicateOperand.RelatedObject(entity: entity, key: "", isNonNil: true)
            return .values([.always(try member(keyPath, Value.self, of: me, expression))])
        }
        return .values(try values(root).flatMap { item -> [Case] in
            switch item.value {
            case .constant(let value):
                guard let rootValue = value as? Root.Output else {
                    throw unsupported(expression, "on nil")
                }
                return [Case(item.condition, .value(rootValue[keyPath: keyPath]))]
            case .attribute(let operand):
                if let isEmpty = Self.emptiness(operand, keyPath) {
                    return [Case(Logic.and(item.condition, isEmpty), .constant(true)),
                            Case(Logic.and(item.condition, Logic.not(isEmpty)), .constant(false))]
                }
                return [Case(item.condition, .attribute(try view(operand, keyPath, expression)))]
            case .object(let object):
                guard object.isNonNil else { throw unsupported(expression, "on a related object that may be nil (use ?. or !)") }
                return [Case(item.condition, try member(keyPath, Value.self, of: object, expression))]
            case .collection(let collection):
                return try collectionMember(keyPath, collection, item.condition, expression)
            case .count:
                throw unsupported(expression, "on a to-many's count")
            case .computed:
                throw unsupported(expression, "on arithmetic")
            }
        })
    }

    /// What a key path reads from an object of the model: an attribute, a related object, a
    /// to-many or its count (keys relative to the predicate's object).
    private func member<Value>(_ keyPath: AnyKeyPath, _: Value.Type, of object: FoundationPredicateOperand.RelatedObject,
                               _ expression: Any) throws -> FoundationPredicateOperand {
        switch KeyPathTarget.resolve(keyPath, valueType: Value.self, entity: object.entity) {
        case .failure(let error):
            throw error
        case .success(.attribute(let key, let attribute)):
            var operand = FoundationPredicateOperand.Attribute(attribute, key: object.key(of: key))
            operand.isNonNil = !attribute.isOptional && !key.contains(".")
            return .attribute(operand)
        case .success(.toOne(let key, let relationship)):
            guard let destination = object.entity.destinationEntity(of: relationship) else {
                throw unsupported(expression, "through \(key), whose destination \(relationship.destinationEntityName) is unknown")
            }
            return .object(FoundationPredicateOperand.RelatedObject(entity: destination, key: object.key(of: key), isNonNil: false))
        case .success(.toMany(let path, let relationship)):
            guard let destination = object.entity.destinationEntity(of: relationship) else {
                throw unsupported(expression, "through \(path), whose destination \(relationship.destinationEntityName) is unknown")
            }
            return .collection(FoundationPredicateOperand.Collection(path: object.key(of: path), destination: destination))
        case .success(.count(let path)):
            throw unsupported(expression, "reading \(path).count in one key path (write \(path).count on the collection)")
        }
    }

    /// `tags.count` and `tags.isEmpty`: found by reading the key path on an empty collection and
    /// on one of two objects (key paths built in different generic contexts are not equal).
    private func collectionMember<Output, Value>(_ keyPath: KeyPath<Output, Value>, _ collection: FoundationPredicateOperand.Collection,
                                                 _ condition: PredicateNode, _ expression: Any) throws -> [Case] {
        guard let kind = Output.self as? any RelationshipValue.Type else {
            throw unsupported(expression, "on \(collection.path)")
        }
        let objectClass = collection.destination.objectClass
        let samples = [objectClass.init(entity: collection.destination, insertInto: nil),
                       objectClass.init(entity: collection.destination, insertInto: nil)]
        guard let empty = kind.relationshipValue([]) as? Output, let two = kind.relationshipValue(samples) as? Output else {
            throw unsupported(expression, "on \(collection.path)")
        }
        let isEmpty = PredicateNode.relationship(RelationshipPredicate(path: collection.path, kind: .count(.constant(true), .equal, .integer(0))))
        if let first = empty[keyPath: keyPath] as? Int, let second = two[keyPath: keyPath] as? Int, first == 0, second == 2 {
            return [Case(condition, .count(collection))]
        }
        if let first = empty[keyPath: keyPath] as? Bool, let second = two[keyPath: keyPath] as? Bool, first, !second {
            return [Case(Logic.and(condition, isEmpty), .constant(true)), Case(Logic.and(condition, Logic.not(isEmpty)), .constant(false))]
        }
        throw unsupported(expression, "reading \(Value.self) from the to-many \(collection.path) (supported: count, isEmpty, contains)")
    }

    /// `name == ""` for `$0.name.isEmpty` on a string attribute.
    private static func emptiness<Root, Value>(_ operand: FoundationPredicateOperand.Attribute,
                                               _ keyPath: KeyPath<Root, Value>) -> PredicateNode? {
        guard operand.arithmetic == nil, operand.attribute.type == .string,
              keyPath as AnyKeyPath == \String.isEmpty else { return nil }
        return .compare(attribute: operand.name, .equal, .text(""))
    }

    /// A key path applied to an attribute's value, where it reads something the stored value
    /// already is (a date's seconds since 2001, an enum's raw value) or is one constant away from.
    private func view<Root, Value>(_ operand: FoundationPredicateOperand.Attribute, _ keyPath: KeyPath<Root, Value>,
                                   _ expression: Any) throws -> FoundationPredicateOperand.Attribute {
        let path = keyPath as AnyKeyPath
        if operand.arithmetic == nil, operand.attribute.type == .date {
            if path == \Date.timeIntervalSinceReferenceDate { return operand }
            if path == \Date.timeIntervalSince1970, var arithmetic = FoundationPredicateArithmetic(type: .date) {
                try arithmetic.append(.add, Date.timeIntervalBetween1970AndReferenceDate, constantFirst: false)
                var result = operand
                result.arithmetic = arithmetic
                return result
            }
        }
        if operand.arithmetic == nil, Self.readsRawValue(keyPath, of: operand.attribute) { return operand }
        throw unsupported(expression, "reading a \(Value.self) from the \(Root.self) attribute \(operand.name) "
            + "(supported: a string's isEmpty, a date's timeIntervalSinceReferenceDate and timeIntervalSince1970, an enum's rawValue)")
    }

    /// Whether `keyPath` is `\E.rawValue` of an enum (or other `RawRepresentable`) attribute
    /// stored by its raw value. Key paths to the same property built in different generic
    /// contexts are not equal, so this checks what it reads on sample values instead.
    static func readsRawValue<Root, Value>(_ keyPath: KeyPath<Root, Value>, of attribute: AttributeDescription) -> Bool {
        guard attribute.type != .json, let rawType = Root.self as? any (RawRepresentable & AttributeValue).Type,
              rawType.attributeType == attribute.type else { return false }
        return readsRawValue(keyPath as AnyKeyPath, rawType, attribute)
    }

    private static func readsRawValue<R: RawRepresentable & AttributeValue>(_ keyPath: AnyKeyPath, _ type: R.Type,
                                                                           _ attribute: AttributeDescription) -> Bool {
        guard let typed = keyPath as? KeyPath<R, R.RawValue> else { return false }
        var candidates: [SQLValue] = (-2...16).map { .integer(Int64($0)) } + ["", "a", "low", "normal", "high"].map { .text($0) }
        if let initial = attribute.defaultValue { candidates.append(initial) }
        let samples = candidates.compactMap { R(storedValue: $0) }
        guard !samples.isEmpty else { return false }
        return samples.allSatisfy { sample in
            let read = try? FoundationPredicateConstant.stored(sample[keyPath: typed])
            let raw = try? FoundationPredicateConstant.stored(sample.rawValue)
            return read != nil && read == raw
        }
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.Variable: FoundationPredicateVariable {
    var variableKey: PredicateExpressions.VariableID { key }
}
