extension PredicateNode {
    /// The chains of relationships a normalized predicate reads through, from `entity`: a key
    /// path `project.owner.name` is the chain project, owner; `project == %@` reads project;
    /// `ANY tags.project.name` reads tags, project. Chains that are prefixes of others are left
    /// out (the longer chain covers them).
    ///
    /// A fetch uses them to find the saved objects whose answer depends on related objects that
    /// have unsaved changes. Recursion follows relationship conditions (bounded by the nesting limit).
    func relationshipChains(in entity: EntityDescription) throws -> [[PredicateKey.Hop]] {
        // Every related read names the chain it goes through; the chains are those hops.
        PredicateKey.maximalChains(try relatedReads(in: entity).map(\.hops))
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
