extension PredicateNode {
    /// What a normalized predicate reads through relationships, from `entity` (see
    /// ``PredicateKey/RelatedRead``); nothing when it reads the object's own attributes only.
    /// Recursion follows relationship conditions (bounded by the nesting limit).
    func relatedReads(in entity: EntityDescription) throws -> [PredicateKey.RelatedRead] {
        var reads: [PredicateKey.RelatedRead] = []
        try collectReads(in: entity, prefix: [], into: &reads)
        return reads
    }

    private func collectReads(in entity: EntityDescription, prefix: [PredicateKey.Hop],
                              into reads: inout [PredicateKey.RelatedRead]) throws {
        var stack: [PredicateNode] = [self]
        while let node = stack.popLast() {
            switch node {
            case .and(let nodes), .or(let nodes): stack.append(contentsOf: nodes)
            case .not(let inner): stack.append(inner)
            case .constant, .invalid, .variable: break
            case .relationship(let relationship):
                let collection = try PredicateKey.resolveCollection(relationship.path, in: entity)
                let chain = prefix + collection.hops + [collection.relationship]
                let destination = collection.relationship.destination
                reads.append(PredicateKey.RelatedRead(hops: chain, key: PredicateKey.selfKey))
                if case .aggregate(_, let attribute, _, _) = relationship.kind {
                    try Self.appendRead(of: attribute, in: destination, prefix: chain, to: &reads)
                }
                try relationship.inner?.collectReads(in: destination, prefix: chain, into: &reads)
            case .values(let lhs, _, let rhs):
                for key in lhs.keys + rhs.keys { try Self.appendRead(of: key, in: entity, prefix: prefix, to: &reads) }
            default:
                guard let key = PredicateEvaluator.key(of: node) else { continue }
                try Self.appendRead(of: key, in: entity, prefix: prefix, to: &reads)
            }
        }
    }

    /// The read of `key` on `entity`'s objects, reached through `prefix`; nothing for the
    /// request entity's own attributes.
    static func appendRead(of key: String, in entity: EntityDescription, prefix: [PredicateKey.Hop],
                           to reads: inout [PredicateKey.RelatedRead]) throws {
        if !PredicateKey.isPath(key), entity.attribute(named: key) != nil {
            if !prefix.isEmpty { reads.append(PredicateKey.RelatedRead(hops: prefix, key: key)) }
            return
        }
        let resolved = try PredicateKey.resolve(key, in: entity)
        let chain = prefix + resolved.hops
        switch resolved.target {
        case .attribute(let attribute):
            if !chain.isEmpty { reads.append(PredicateKey.RelatedRead(hops: chain, key: attribute.name)) }
        case .toOne(let relationship):
            // The related object is compared: its foreign key is read one level up, and its
            // deletion changes what the to-one reads.
            let destination = try PredicateKey.destination(of: relationship, from: resolved.entity, rootEntity: entity)
            let hop = PredicateKey.Hop(entity: resolved.entity, relationship: relationship, destination: destination)
            reads.append(PredicateKey.RelatedRead(hops: chain + [hop], key: PredicateKey.selfKey))
        case .object:
            if !chain.isEmpty { reads.append(PredicateKey.RelatedRead(hops: chain, key: PredicateKey.selfKey)) }
        }
    }
}
