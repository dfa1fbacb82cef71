import Foundation

/// `#Predicate<Animal> { $0 is Dog }`: the object's entity is `Dog`'s or one below it, as
/// Swift's `is` answers for the classes (see ``EntityTest``).
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.TypeCheck: FoundationPredicateExpression {
    func translate<Root: ManagedObject>(with translator: FoundationPredicateTranslator<Root>) throws -> FoundationPredicateTranslation {
        try translator.typeCheck(self, of: input, as: Desired.self)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension FoundationPredicateTranslator {
    /// `$0 is T`: an entity test when `T` is an entity class and the tested value the object.
    func typeCheck(_ expression: Any, of tested: any PredicateExpression, as desired: Any.Type) throws -> FoundationPredicateTranslation {
        guard let variable = tested as? PredicateExpressions.Variable<Input>, variable.key == input, bound[input] == nil else {
            throw unsupported(expression, "on anything but the object itself ($0 is Dog)")
        }
        guard let type = desired as? ManagedObject.Type else {
            throw unsupported(expression, "with \(desired), which is not a ManagedObject class")
        }
        return .predicate(.entity(EntityTest(entityName: type.entityName, includesSubentities: true)))
    }
}
