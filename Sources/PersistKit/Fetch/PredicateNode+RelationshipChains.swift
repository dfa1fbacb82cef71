extension PredicateNode {
    /// The chains of relationships a normalized predicate reads through, from `entity`: a key
    /// path `project.owner.name` is the chain project, owner; `project == %@` reads project;
    /// `ANY tags.project.name` reads tags, project. Chains that are prefixes of others are left
    /// out (the longer chain covers them).
    ///
    /// A fetch uses them to find the saved objects whose answer depends on related objects that
    /// have unsaved changes. Recursion follows relationship conditions (bounded by the nesting limit).
    func relationshipChains(in entity: EntityDescription) throws -> [[PredicateKey.Hop]] {
        var chains: [[PredicateKey.Hop]] = []
        try collectChains(in: entity, prefix: [], into: &chains)
        return PredicateKey.maximalChains(chains)
    }

    private func collectChains(in entity: EntityDescription, prefix: [PredicateKey.Hop],
                               into chains: inout [[PredicateKey.Hop]]) throws {
        var stack: [PredicateNode] = [self]
        while let node = stack.popLast() {
            switch node {
            case .and(let nodes), .or(let nodes): stack.append(contentsOf: nodes)
            case .not(let inner): stack.append(inner)
            case .constant, .invalid, .variable: break
            case .relationship(let relationship):
                let collection = try PredicateKey.resolveCollection(relationship.path, in: entity)
                let chain = prefix + collection.hops + [collection.relationship]
                chains.append(chain)
                try relationship.inner?.collectChains(in: collection.relationship.destination, prefix: chain, into: &chains)
            default:
                guard let key = PredicateEvaluator.key(of: node),
                      PredicateKey.isPath(key) || entity.attribute(named: key) == nil else { continue }
                let resolved = try PredicateKey.resolve(key, in: entity)
                var chain = prefix + resolved.hops
                if case .toOne(let relationship) = resolved.target {
                    // The related object itself is read: its deletion changes the answer.
                    chain.append(PredicateKey.Hop(entity: resolved.entity, relationship: relationship,
                                                  destination: try PredicateKey.destination(of: relationship, from: resolved.entity,
                                                                                            rootEntity: entity)))
                }
                if !chain.isEmpty { chains.append(chain) }
            }
        }
    }
}

extension PredicateKey {
    /// The chains that are not a prefix of another one, without repeats.
    static func maximalChains(_ chains: [[Hop]]) -> [[Hop]] {
        func name(_ chain: [Hop]) -> [String] { chain.map { $0.entity.name + "." + $0.relationship.name } }
        let names = chains.map(name)
        var seen = Set<[String]>()
        var result: [[Hop]] = []
        for (index, chain) in chains.enumerated() {
            let key = names[index]
            let covered = names.contains { other in other.count > key.count && Array(other.prefix(key.count)) == key }
            if !covered && seen.insert(key).inserted { result.append(chain) }
        }
        return result
    }
}
