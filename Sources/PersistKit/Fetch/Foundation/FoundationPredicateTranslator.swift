import Foundation

/// Translates a Foundation `FetchPredicate` (`#Predicate { ... }`) into a ``PredicateNode`` by walking
/// its expression tree.
///
/// Each `PredicateExpressions` type the translator understands conforms to
/// ``FoundationPredicateExpression`` and hands its operands back to the translator. A `Bool`
/// expression becomes a predicate node; any other expression becomes the list of values it can
/// take, each under a condition (``FoundationPredicateOperand/Case``): `$0.notes ?? ""` is `""`
/// where `notes IS NULL` and the attribute `notes` elsewhere. A comparison of two such
/// expressions is then the disjunction, over pairs of cases, of both conditions and the
/// comparison of the two values, which is either a constant (folded now) or an attribute compared
/// with a constant: a native predicate node. So SQL and memory evaluate a translated predicate
/// with exactly the same code as a native one.
///
/// Whatever cannot be translated throws a ``PersistError`` with code `.invalidPredicate` that
/// names the `PredicateExpressions` type; ``node(for:)`` turns it into an invalid node, which a
/// fetch throws.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct FoundationPredicateTranslator<Input: ManagedObject> {
    typealias Case = FoundationPredicateOperand.Case
    typealias Logic = FoundationPredicateLogic

    let entity: EntityDescription
    let input: PredicateExpressions.VariableID
    /// Values of the variables of enclosing `flatMap` closures.
    private(set) var bound: [PredicateExpressions.VariableID: FoundationPredicateOperand] = [:]

    init(entity: EntityDescription, input: PredicateExpressions.VariableID) {
        self.entity = entity
        self.input = input
    }

    /// The predicate node for a Foundation predicate, or an invalid node naming what could not be
    /// translated.
    static func node(for predicate: Foundation.Predicate<Input>) -> PredicateNode {
        guard let entity = FetchPredicate<Input>.defaultEntity() else {
            return .invalid(PersistError(.invalidPredicate,
                "#Predicate<\(Input.self)> cannot be translated: \(Input.self) is not an entity class"))
        }
        let translator = FoundationPredicateTranslator(entity: entity, input: predicate.variable.key)
        do {
            return try translator.predicate(predicate.expression)
        } catch let error as PersistError {
            return .invalid(PersistError(.invalidPredicate,
                "#Predicate<\(Input.self)> cannot be translated: " + error.message,
                entity: entity.name, attribute: error.attribute))
        } catch {
            return .invalid(PersistError(.invalidPredicate,
                "#Predicate<\(Input.self)> cannot be translated: \(error)", entity: entity.name))
        }
    }

    /// The translator inside a closure whose variable has the value `value`.
    func binding(_ variable: PredicateExpressions.VariableID, to value: FoundationPredicateOperand) -> Self {
        var copy = self
        copy.bound[variable] = value
        return copy
    }

    // MARK: Dispatch

    func translate(_ expression: any PredicateExpression) throws -> FoundationPredicateTranslation {
        guard let translatable = expression as? any FoundationPredicateExpression else {
            throw unsupported(expression)
        }
        return try translatable.translate(with: self)
    }

    /// A `Bool` expression as a predicate node.
    func predicate(_ expression: any PredicateExpression) throws -> PredicateNode {
        switch try translate(expression) {
        case .predicate(let node): return node
        case .values(let cases): return try truth(of: cases)
        }
    }

    /// The values an expression takes.
    func values(_ expression: any PredicateExpression) throws -> [Case] {
        switch try translate(expression) {
        case .values(let cases): return cases
        case .predicate(.constant(let value)): return [.always(.constant(value))]
        case .predicate(let node): return [Case(node, .constant(true)), Case(Logic.not(node), .constant(false))]
        }
    }

    /// Where a `Bool`-valued expression is true.
    func truth(of cases: [Case]) throws -> PredicateNode {
        try Logic.or(cases.map { item in
            switch item.value {
            case .constant(let value):
                return Logic.and(item.condition, .constant(try FoundationPredicateConstant.truth(value)))
            case .attribute(let operand):
                guard operand.attribute.type == .boolean, operand.arithmetic == nil else {
                    throw PersistError(.invalidPredicate,
                        "The \(operand.attribute.type.rawValue) attribute \(operand.name) is used as a condition",
                        attribute: operand.name)
                }
                return Logic.and(item.condition, .compare(attribute: operand.name, .equal, .integer(1)))
            default:
                throw PersistError(.invalidPredicate, "A related object, a to-many or a count is used as a condition")
            }
        })
    }

    /// The cases of two operands taken together, skipping pairs that cannot both happen.
    func pairs(_ left: [Case], _ right: [Case],
               _ combine: (FoundationPredicateOperand, FoundationPredicateOperand) throws -> PredicateNode) rethrows -> PredicateNode {
        var parts: [PredicateNode] = []
        for l in left {
            for r in right {
                let condition = Logic.and(l.condition, r.condition)
                if Logic.isFalse(condition) { continue }
                parts.append(Logic.and(condition, try combine(l.value, r.value)))
            }
        }
        return Logic.or(parts)
    }

    // MARK: Errors

    /// `PredicateExpressions.SequenceMaximum`: the name of an expression's type without its
    /// module and generic arguments.
    static func constructName(_ expression: Any) -> String {
        var name = String(reflecting: type(of: expression))
        if let angle = name.firstIndex(of: "<") { name = String(name[..<angle]) }
        if let range = name.range(of: "PredicateExpressions.") { return String(name[range.lowerBound...]) }
        return name
    }

    /// The error for an expression type (or a use of it) the translator does not support.
    func unsupported(_ expression: Any, _ detail: String? = nil) -> PersistError {
        var text = "\(Self.constructName(expression))" + (detail.map { " " + $0 } ?? "") + " is not supported"
        var shown = String(describing: expression)
        if shown.count > 160 { shown = String(shown.prefix(157)) + "..." }
        text += " (in \(shown))"
        return PersistError(.invalidPredicate, text, entity: entity.name)
    }

    /// Runs `body`, prefixing the message of any error it throws with the construct's name.
    func naming<T>(_ expression: Any, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PersistError {
            throw PersistError(.invalidPredicate, "\(Self.constructName(expression)): \(error.message)",
                               entity: entity.name, attribute: error.attribute)
        }
    }
}
