import Foundation

/// A value a Foundation predicate expression takes while it is translated: a constant, or an
/// attribute of the object being tested (perhaps through arithmetic with constants).
enum FoundationPredicateOperand {
    /// A value known at translation: nil, or a non-optional Swift value (optionals are unwrapped,
    /// so `Optional(Optional(5))` and `5` are the same constant).
    case constant(Any?)
    /// The object's attribute.
    case attribute(Attribute)

    /// A constant, with nested optionals flattened.
    static func value(_ value: Any) -> FoundationPredicateOperand {
        .constant(FoundationPredicateConstant.canonical(value))
    }

    /// An attribute as an operand.
    struct Attribute {
        let attribute: AttributeDescription
        /// Arithmetic applied to the stored value; nil when the operand is the stored value itself.
        var arithmetic: FoundationPredicateArithmetic?
        /// Whether the operand is known not to be nil here (inside `??`, `!` or `flatMap`), or
        /// cannot be (a non-optional attribute).
        var isNonNil: Bool

        init(_ attribute: AttributeDescription) {
            self.attribute = attribute
            arithmetic = nil
            isNonNil = !attribute.isOptional
        }

        var name: String { attribute.name }

        /// `name IS NULL`.
        var isNull: PredicateNode { .compare(attribute: attribute.name, .equal, .null) }
        /// `name IS NOT NULL`.
        var isNotNull: PredicateNode { .compare(attribute: attribute.name, .notEqual, .null) }

        /// The same operand, known not to be nil.
        var nonNil: Attribute {
            var copy = self
            copy.isNonNil = true
            return copy
        }
    }

    /// One value an expression can take and the condition under which it takes it. An
    /// expression translates to cases that exclude each other and together cover every object
    /// (except objects for which a force unwrap of nil makes the enclosing comparison false).
    struct Case {
        var condition: PredicateNode
        var value: FoundationPredicateOperand

        init(_ condition: PredicateNode, _ value: FoundationPredicateOperand) {
            self.condition = condition
            self.value = value
        }

        /// The single case of a value that does not depend on the object.
        static func always(_ value: FoundationPredicateOperand) -> Case {
            Case(.constant(true), value)
        }
    }
}
