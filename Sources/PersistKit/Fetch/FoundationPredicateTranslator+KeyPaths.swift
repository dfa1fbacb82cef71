import Foundation

// Key paths: `$0.due` is an attribute; a key path on a value is applied now; a few key paths on
// attributes are views of the stored value (`$0.due!.timeIntervalSinceReferenceDate`,
// `$0.priority.rawValue`).
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension FoundationPredicateTranslator {
    /// `root.keyPath`: an attribute when `root` is the predicate's input, else the key path
    /// applied to each value `root` takes.
    func keyPath<Root: PredicateExpression, Value>(_ expression: Any, root: Root,
                                                   keyPath: any KeyPath<Root.Output, Value> & Sendable) throws -> FoundationPredicateTranslation {
        if let variable = root as? PredicateExpressions.Variable<Input>, variable.key == input {
            return .values([.always(.attribute(try attribute(keyPath)))])
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
            }
        })
    }

    /// `name == ""` for `$0.name.isEmpty` on a string attribute.
    private static func emptiness<Root, Value>(_ operand: FoundationPredicateOperand.Attribute,
                                               _ keyPath: KeyPath<Root, Value>) -> PredicateNode? {
        guard operand.arithmetic == nil, operand.attribute.type == .string,
              keyPath as AnyKeyPath == \String.isEmpty else { return nil }
        return .compare(attribute: operand.name, .equal, .text(""))
    }

    /// The attribute a key path of the input names (`\TaskItem.due`).
    private func attribute<Root, Value>(_ keyPath: any KeyPath<Root, Value> & Sendable) throws -> FoundationPredicateOperand.Attribute {
        guard let typed = keyPath as? KeyPath<Input, Value> else {
            throw PersistError(.invalidPredicate, "The key path \(keyPath) does not start at \(Input.self)")
        }
        switch FetchPredicate<Input>.attributeName(typed) {
        case .success(let attribute): return FoundationPredicateOperand.Attribute(attribute)
        case .failure(let error): throw error
        }
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
