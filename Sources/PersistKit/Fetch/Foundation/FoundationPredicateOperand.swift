import Foundation

/// A value a Foundation predicate expression takes while it is translated: a constant, or an
/// attribute of the object being tested (perhaps through arithmetic with constants).
enum FoundationPredicateOperand {
    /// A value known at translation: nil, or a non-optional Swift value (optionals are unwrapped,
    /// so `Optional(Optional(5))` and `5` are the same constant).
    case constant(Any?)
    /// The object's attribute (perhaps through to-ones: `project.name`).
    case attribute(Attribute)
    /// A related object reached through to-ones (`$0.project`), or the element of a to-many
    /// inside `contains(where:)`.
    case object(RelatedObject)
    /// A to-many's objects (`$0.tags`, `$0.project?.tasks`).
    case collection(Collection)
    /// How many objects a to-many holds (`$0.tags.count`).
    case count(Collection)
    /// Arithmetic on two attributes (`$0.budget - $0.spent`), or on such a value: computed as
    /// SQLite computes (``PredicateSemantics/arithmetic(_:_:_:)``), of the kind given.
    case computed(PredicateValue, PredicateValue.Kind)

    /// An object reached through to-ones from the predicate's object (or that object itself).
    struct RelatedObject {
        /// Its entity.
        let entity: EntityDescription
        /// The key path to it (`project`, `project.owner`); empty for the element itself.
        let key: String
        /// Whether it is known not to be nil here.
        var isNonNil: Bool

        /// The key predicates compare: the to-one, or the object itself.
        var comparedKey: String { key.isEmpty ? PredicateKey.selfKey : key }
        /// The key of something read from it (`project.name`).
        func key(of member: String) -> String { key.isEmpty ? member : key + "." + member }
    }

    /// A to-many, by its path from the predicate's object.
    struct Collection {
        let path: String
        let destination: EntityDescription
    }

    /// A constant, with nested optionals flattened.
    static func value(_ value: Any) -> FoundationPredicateOperand {
        .constant(FoundationPredicateConstant.canonical(value))
    }

    /// An attribute as an operand.
    struct Attribute {
        let attribute: AttributeDescription
        /// The key predicates read: the attribute's name, or a key path through to-ones.
        let name: String
        /// Arithmetic applied to the stored value; nil when the operand is the stored value itself.
        var arithmetic: FoundationPredicateArithmetic?
        /// Whether the operand is known not to be nil here (inside `??`, `!` or `flatMap`), or
        /// cannot be (a non-optional attribute, not read through a to-one that may be nil).
        var isNonNil: Bool

        init(_ attribute: AttributeDescription, key: String? = nil) {
            self.attribute = attribute
            name = key ?? attribute.name
            arithmetic = nil
            isNonNil = !attribute.isOptional && !name.contains(".")
        }

        /// `name IS NULL`.
        var isNull: PredicateNode { .compare(attribute: name, .equal, .null) }
        /// `name IS NOT NULL`.
        var isNotNull: PredicateNode { .compare(attribute: name, .notEqual, .null) }

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
