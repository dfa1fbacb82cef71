/// A predicate's test of an object's entity: `entity == %@` in a format string (that entity
/// exactly, as Core Data's entity comparison), `$0 is Dog` in `#Predicate` (that entity or
/// any below it, as Swift's `is`).
///
/// The rows a fetch reads are of one entity per query (a fetch of a parent runs one per entity
/// of its tree, each reading only that entity's rows through the `_entity` index), so the test
/// is decided when the request is planned, once per entity: in SQL it is the constant `1` or
/// `0`, in memory the evaluator's constant; no row pays for it. On an entity in no tree it is
/// true for that entity's name and false for every other.
struct EntityTest: Sendable, Equatable {
    /// The entity named.
    let entityName: String
    /// Whether the entities below it pass too.
    let includesSubentities: Bool

    /// Whether objects of `entity` pass.
    func passes(_ entity: EntityDescription) -> Bool {
        entity.name == entityName || (includesSubentities && entity.inheritance?.ancestorNames.contains(entityName) == true)
    }
}

extension PredicateNode {
    /// The tree with each entity test replaced by its answer for `entity`'s objects: for
    /// `pk_predicate`, which reads a row's columns and not its entity.
    func decidingEntityTests(for entity: EntityDescription) -> PredicateNode {
        mapComparisons { node in
            guard case .entity(let test) = node else { return nil }
            return .constant(test.passes(entity))
        }
    }
}
