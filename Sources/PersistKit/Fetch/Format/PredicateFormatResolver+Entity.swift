/// The entity test of a format string: `entity == %@` (a ManagedObject class, an
/// `EntityDescription` or an entity's name), `entity.name == 'Dog'`, with `!=` and `IN`, and
/// `self.` before either, as Core Data's `entity == %@` and `self.entity.name`. It is the
/// entity exactly, as Core Data compares entities: `entity == %@` with `Dog.self` is false for a
/// Puppy (`#Predicate { $0 is Dog }` includes sub-entities). An entity with an attribute or a
/// relationship named `entity` keeps its own meaning for the key.
extension PredicateFormatResolver {
    func entityTest(_ lhs: PredicateFormatOperand, _ op: PredicateFormatOperator, _ rhs: PredicateFormatOperand,
                    at position: Int) throws -> PredicateNode? {
        let key: String, value: PredicateFormatValue
        switch (lhs, rhs) {
        case (.key(let name, _), .value(let constant, _)), (.value(let constant, _), .key(let name, _)): (key, value) = (name, constant)
        default: return nil
        }
        let path = key.hasPrefix("self.") ? String(key.dropFirst(5)) : key
        guard path == "entity" || path == "entity.name", entity.attribute(named: "entity") == nil,
              entity.relationship(named: "entity") == nil else { return nil }
        guard op == .equal || op == .notEqual || (op == .in && lhs.isKey) else {
            throw fail("The entity can only be tested with ==, != or IN", at: position)
        }
        let given = try swiftValue(value, at: position)
        let candidates: [Any?] = op == .in ? (given.flatMap(elements) ?? [given]) : [given]
        let names: [String] = try candidates.map { candidate in
            if let name = candidate as? String { return name }
            if path == "entity", let type = candidate as? ManagedObject.Type { return type.entityName }
            if path == "entity", let description = candidate as? EntityDescription { return description.name }
            throw fail("\(key) is compared with \(candidate.map { "\($0)" } ?? "nil"), which names no entity "
                       + (path == "entity" ? "(give a ManagedObject class, an EntityDescription or an entity's name)" : "(give its name)"),
                       at: position)
        }
        let tests = names.map { PredicateNode.entity(EntityTest(entityName: $0, includesSubentities: false)) }
        let node: PredicateNode = tests.count == 1 ? tests[0] : .or(tests)
        return op == .notEqual ? .not(node) : node
    }
}

private extension PredicateFormatOperand {
    var isKey: Bool {
        if case .key = self { return true }
        return false
    }
}
