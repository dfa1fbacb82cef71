/// Predicates that read through relationships, evaluated on objects: to-ones are followed with
/// ``ManagedObject/relatedObject(at:)`` and to-manys read with
/// ``ManagedObject/relatedObjects(at:)``, so the context's unsaved changes (relinks, renamed or
/// deleted related objects, unsaved inserts) are seen, and deleted objects are not.
extension PredicateEvaluator {
    /// Compiles a normalized predicate on `entity`'s objects.
    static func compile(_ node: PredicateNode, entity: EntityDescription) throws -> Compiled {
        try compile(node) { leaf in try compileLeaf(leaf, entity: entity) }
    }

    private static func compileLeaf(_ node: PredicateNode, entity: EntityDescription) throws -> Compiled {
        if case .relationship(let relationship) = node { return try compileRelationship(relationship, entity: entity) }
        if case .entity(let test) = node { return .constant(test.passes(entity)) }
        if case .values(let lhs, let comparison, let rhs) = node {
            return .values(try compileValue(lhs, entity: entity), comparison, try compileValue(rhs, entity: entity))
        }
        guard let key = key(of: node) else { return try comparison(node, slot: 0) }
        if !PredicateKey.isPath(key), let attribute = entity.attribute(named: key) {
            try ExternalStorage.checkComparison(node, on: attribute, of: entity)
            return try comparison(node, slot: attribute.index)
        }
        let resolved = try PredicateKey.resolve(key, in: entity)
        let test: Compiled
        switch resolved.target {
        case .attribute(let attribute):
            try ExternalStorage.checkComparison(node, on: attribute, of: resolved.entity)
            test = try comparison(node, slot: attribute.index)
        case .toOne(let relationship): test = .objectValue(.reference(relationship.index), try comparison(node, slot: 0))
        case .object: test = .objectValue(.identity, try comparison(node, slot: 0))
        }
        guard !resolved.hops.isEmpty else { return test }
        // Through a nil to-one the value is nil: the comparison's answer on nil.
        let nilValue = try evaluate(try comparison(node, slot: 0), [.null])
        return .path(resolved.hops.map(\.relationship.index), test, nilValue: nilValue)
    }

    private static func compileRelationship(_ relationship: RelationshipPredicate, entity: EntityDescription) throws -> Compiled {
        let collection = try PredicateKey.resolveCollection(relationship.path, in: entity)
        let toMany = collection.relationship
        let core: Compiled
        switch relationship.kind {
        case .any(let inner):
            core = .any(toMany.relationship.index, try compile(inner, entity: toMany.destination))
        case .count(let inner, let op, let value):
            var test: Compiled?
            if case .constant(true) = inner {} else { test = try compile(inner, entity: toMany.destination) }
            core = .count(toMany.relationship.index, test, op, value)
        case .aggregate(let function, let name, let op, let value):
            guard let attribute = toMany.destination.attribute(named: name) else {
                throw PredicateKey.unknownKey(name, in: toMany.destination, keyPath: relationship.path + ".@" + function.rawValue + "." + name,
                                              rootEntity: entity)
            }
            core = .aggregate(toMany.relationship.index, function, attribute.index, op, value)
        }
        guard !collection.hops.isEmpty else { return core }
        return .path(collection.hops.map(\.relationship.index), core, nilValue: relationship.valueWhenEmpty)
    }

    /// Whether a compiled predicate reads anything but the object's storage.
    static func needsObject(_ node: Compiled) -> Bool {
        var stack = [node]
        while let node = stack.popLast() {
            switch node {
            case .objectValue, .path, .any, .count, .aggregate: return true
            case .and(let nodes), .or(let nodes): stack.append(contentsOf: nodes)
            case .not(let inner): stack.append(inner)
            case .values(let lhs, _, let rhs): if lhs.readsRelationships || rhs.readsRelationships { return true }
            default: break
            }
        }
        return false
    }

    static func evaluate(_ node: Compiled, object: ManagedObject) throws(PersistError) -> Bool {
        switch node {
        case .and(let nodes):
            for node in nodes where try !evaluate(node, object: object) { return false }
            return true
        case .or(let nodes):
            for node in nodes where try evaluate(node, object: object) { return true }
            return false
        case .not(let inner):
            return try !evaluate(inner, object: object)
        case .objectValue(let source, let test):
            let value: SQLValue
            switch source {
            case .reference(let index): value = object.relatedObject(at: index).map { .integer($0.storageReference) } ?? .null
            case .identity: value = .integer(object.storageReference)
            }
            return try evaluate(test, [value])
        case .path(let hops, let test, let nilValue):
            guard let end = PredicateSemantics.follow(hops, from: object) else { return nilValue }
            return try evaluate(test, object: end)
        case .any(let index, let test):
            return try PredicateSemantics.any(object.relatedObjects(at: index)) { (related) throws(PersistError) in
                try evaluate(test, object: related)
            }
        case .count(let index, let test, let op, let value):
            let objects = object.relatedObjects(at: index)
            guard let test else { return try PredicateSemantics.count(objects, nil, op, value) }
            return try PredicateSemantics.count(objects, { (related) throws(PersistError) in try evaluate(test, object: related) },
                                                op, value)
        case .aggregate(let index, let function, let slot, let op, let value):
            let values = object.relatedObjects(at: index).map { slot < $0.storage.count ? $0.storage[slot] : .null }
            return PredicateSemantics.aggregate(function, of: values, op, value)
        case .values(let lhs, let comparison, let rhs):
            return PredicateSemantics.compareValues(value(lhs, object: object), comparison, value(rhs, object: object))
        default:
            return try evaluate(node, object.storage)
        }
    }
}
