// Comparisons of two computed values in memory (`completedAt > due`, `budget - spent < 0`):
// each side compiled to slot reads, reads through to-ones, constants and arithmetic, and
// answered by ``PredicateSemantics``.
extension PredicateEvaluator {
    /// One side of a compiled ``PredicateNode/values(_:_:_:)`` (recursion over it is bounded by
    /// ``PredicateValue/maximumOperations``).
    indirect enum CompiledValue {
        /// A storage slot of the object, read as its column stores it.
        case slot(Int, PredicateSemantics.Affinity)
        /// A storage slot of the object at the end of to-ones (relationship indexes), nil when
        /// a to-one on the way is nil.
        case path([Int], Int, PredicateSemantics.Affinity)
        case constant(SQLValue)
        case arithmetic(ArithmeticOperator, CompiledValue, CompiledValue)
        case negated(CompiledValue)

        var readsRelationships: Bool {
            switch self {
            case .slot, .constant: return false
            case .path: return true
            case .arithmetic(_, let lhs, let rhs): return lhs.readsRelationships || rhs.readsRelationships
            case .negated(let inner): return inner.readsRelationships
            }
        }
    }

    /// A side whose keys are storage slots as `slot` says.
    static func compileValue(_ value: PredicateValue, slot: (String) throws -> CompiledValue) throws -> CompiledValue {
        switch value {
        case .key(let key): return try slot(key)
        case .constant(let constant): return .constant(constant)
        case .arithmetic(let op, let lhs, let rhs):
            return .arithmetic(op, try compileValue(lhs, slot: slot), try compileValue(rhs, slot: slot))
        case .negated(let inner): return .negated(try compileValue(inner, slot: slot))
        }
    }

    /// A side whose keys resolve against `entity`: attributes, perhaps through to-ones.
    static func compileValue(_ value: PredicateValue, entity: EntityDescription) throws -> CompiledValue {
        try compileValue(value) { key in
            if !PredicateKey.isPath(key), let attribute = entity.attribute(named: key) {
                try ExternalStorage.checkComparison(.values(value, .order(.equal), value), on: attribute, of: entity)
                return .slot(attribute.index, PredicateSemantics.Affinity(attribute.type))
            }
            let resolved = try PredicateKey.resolve(key, in: entity)
            guard case .attribute(let attribute) = resolved.target else {
                throw PersistError(.invalidPredicate, "\(key) is not an attribute: only attributes can be computed with or compared with keys",
                                   entity: entity.name, attribute: key)
            }
            try ExternalStorage.checkComparison(.values(value, .order(.equal), value), on: attribute, of: resolved.entity)
            let affinity = PredicateSemantics.Affinity(attribute.type)
            guard !resolved.hops.isEmpty else { return .slot(attribute.index, affinity) }
            return .path(resolved.hops.map(\.relationship.index), attribute.index, affinity)
        }
    }

    /// A side's value on stored values (no reads through relationships).
    static func value(_ value: CompiledValue, _ storage: ContiguousArray<SQLValue>) -> SQLValue {
        switch value {
        case .slot(let slot, let affinity): return slot < storage.count ? affinity.apply(storage[slot]) : .null
        case .path: return .null
        case .constant(let constant): return constant
        case .arithmetic(let op, let lhs, let rhs):
            return PredicateSemantics.arithmetic(op, self.value(lhs, storage), self.value(rhs, storage))
        case .negated(let inner): return PredicateSemantics.negate(self.value(inner, storage))
        }
    }

    /// A side's value on an object, following to-ones on the object's current values.
    static func value(_ value: CompiledValue, object: ManagedObject) -> SQLValue {
        switch value {
        case .slot(let slot, let affinity): return slot < object.storage.count ? affinity.apply(object.storage[slot]) : .null
        case .path(let hops, let slot, let affinity):
            guard let end = PredicateSemantics.follow(hops, from: object), slot < end.storage.count else { return .null }
            return affinity.apply(end.storage[slot])
        case .constant(let constant): return constant
        case .arithmetic(let op, let lhs, let rhs):
            return PredicateSemantics.arithmetic(op, self.value(lhs, object: object), self.value(rhs, object: object))
        case .negated(let inner): return PredicateSemantics.negate(self.value(inner, object: object))
        }
    }
}
