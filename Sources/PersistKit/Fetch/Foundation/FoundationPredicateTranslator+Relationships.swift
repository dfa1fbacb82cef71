import Foundation

// To-manys in Foundation predicates: `$0.tags.contains { $0.name == "x" }` (ANY) and
// `$0.tags.allSatisfy { ... }` (ALL); the closure is translated on the destination entity.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension FoundationPredicateTranslator {
    /// `sequence.contains(where: test)`, or `sequence.allSatisfy(test)` when `all`.
    func quantified(_ expression: Any, sequence: any PredicateExpression, variable: PredicateExpressions.VariableID,
                    test: any PredicateExpression, all: Bool) throws -> FoundationPredicateTranslation {
        let sequences = try values(sequence)
        for item in sequences {
            guard case .collection = item.value else {
                let error = unsupported(expression)
                throw PersistError(.invalidPredicate, error.message + ": \(all ? "allSatisfy" : "contains(where:)") works on to-many relationships",
                                   entity: entity.name)
            }
        }
        return .predicate(try naming(expression) {
            try Logic.or(sequences.map { item in
                guard case .collection(let collection) = item.value else { return .constant(false) }
                // A translator of its own: the closure reads the destination's objects, and
                // nothing of the enclosing object (that would be a correlated condition).
                let element = FoundationPredicateTranslator(entity: collection.destination, input: variable)
                let test = try element.predicate(test)
                let any = PredicateNode.relationship(RelationshipPredicate(path: collection.path, kind: .any(all ? Logic.not(test) : test)))
                return Logic.and(item.condition, all ? Logic.not(any) : any)
            })
        })
    }
}
