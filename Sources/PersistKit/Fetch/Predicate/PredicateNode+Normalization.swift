extension PredicateNode {
    /// The predicate in the form the SQL compiler and the in-memory evaluator take, so both see
    /// the same tree:
    ///
    /// - groups are flat: no AND directly inside an AND, no OR inside an OR;
    /// - `NOT` only wraps comparisons (pushed down with De Morgan's laws, exact in two-valued logic);
    /// - constants are folded away (the result is a constant only when the whole predicate is);
    /// - in an OR, `==` comparisons and `IN` lists on the same attribute become one `IN` list;
    ///   in an AND, `!=` comparisons and `NOT IN` lists become one `NOT IN` list;
    /// - groups nest at most ``maximumNesting`` levels, so later passes may recurse.
    ///
    /// Works with explicit stacks, in time linear in the size of the tree however deep it is.
    ///
    /// - Throws: the first invalid node or unsubstituted variable (in written order), or
    ///   `.invalidPredicate` when the groups nest more than ``maximumNesting`` levels.
    func normalized() throws -> PredicateNode {
        try normalized(level: 0)
    }

    /// The normalized tree of a predicate that sits `base` levels deep (inside relationship
    /// conditions: each counts one level, as ``PredicateNesting`` counts them).
    private func normalized(level base: Int) throws -> PredicateNode {
        var frames = [NormalizationFrame(kind: nil, pending: [(self, false)])]
        while let top = frames.indices.last {
            guard let (node, negated) = frames[top].pending.popLast() else {
                let frame = frames.removeLast()
                guard let parent = frames.indices.last else { return frame.results.first ?? .constant(true) }
                frames[parent].add(frame.finish())
                continue
            }
            switch node {
            case .not(let inner):
                frames[top].pending.append((inner, !negated))
            case .and(let children), .or(let children):
                var isAnd = false
                if case .and = node { isAnd = true }
                if negated { isAnd.toggle() }
                if frames[top].kind == isAnd {
                    frames[top].pending.append(contentsOf: children.reversed().lazy.map { ($0, negated) })
                } else {
                    // Every frame but the root starts a level: its kind differs from its parent's.
                    if frames.count + base > PredicateNode.maximumNesting {
                        throw PredicateNode.nestingError(frames.count + base)
                    }
                    frames.append(NormalizationFrame(kind: isAnd, pending: children.reversed().map { ($0, negated) }))
                }
            case .invalid(let error):
                throw error
            case .variable(let variable):
                throw variable.unsubstitutedError
            case .constant(let value):
                frames[top].add(.constant(value != negated))
            case .relationship(let relationship):
                // The condition on the related objects is a level of its own.
                let level = frames.count + base
                if level > PredicateNode.maximumNesting { throw PredicateNode.nestingError(level) }
                let folded = try Self.normalized(relationship, level: level)
                if case .constant(let value) = folded {
                    frames[top].add(.constant(value != negated))
                } else {
                    frames[top].add(negated ? .not(folded) : folded)
                }
            default:
                frames[top].add(negated ? .not(node) : node)
            }
        }
        return .constant(true)
    }

    /// A relationship condition with its inner predicate normalized, or the constant it is
    /// when that predicate is (no object satisfies `false`).
    private static func normalized(_ relationship: RelationshipPredicate, level: Int) throws -> PredicateNode {
        guard let inner = relationship.inner else { return .relationship(relationship) }
        let normalized = try inner.normalized(level: level)
        if case .constant(false) = normalized {
            switch relationship.kind {
            case .any: return .constant(false)
            case .count(_, let op, let value): return .constant(PredicateSemantics.compare(.integer(0), op, value))
            case .aggregate: break
            }
        }
        return .relationship(relationship.replacingInner(normalized))
    }

    /// The tree with every comparison replaced by `transform`'s result (nil keeps it), structure
    /// otherwise unchanged. Iterative, so any depth is fine.
    func mapComparisons(_ transform: (PredicateNode) throws -> PredicateNode?) rethrows -> PredicateNode {
        enum Step { case visit(PredicateNode), finishAnd(Int), finishOr(Int), finishNot }
        var steps: [Step] = [.visit(self)]
        var results: [PredicateNode] = []
        while let step = steps.popLast() {
            switch step {
            case .visit(let node):
                switch node {
                case .and(let children):
                    steps.append(.finishAnd(children.count))
                    steps.append(contentsOf: children.reversed().lazy.map { .visit($0) })
                case .or(let children):
                    steps.append(.finishOr(children.count))
                    steps.append(contentsOf: children.reversed().lazy.map { .visit($0) })
                case .not(let inner):
                    steps.append(.finishNot)
                    steps.append(.visit(inner))
                case .constant, .invalid:
                    results.append(node)
                case .relationship(let relationship):
                    // Inner predicates nest at most as deeply as the nesting limit allows.
                    guard let inner = relationship.inner else {
                        results.append(node)
                        break
                    }
                    results.append(.relationship(relationship.replacingInner(try inner.mapComparisons(transform))))
                default:
                    results.append(try transform(node) ?? node)
                }
            case .finishAnd(let count):
                let children = Array(results.suffix(count))
                results.removeLast(count)
                results.append(.and(children))
            case .finishOr(let count):
                let children = Array(results.suffix(count))
                results.removeLast(count)
                results.append(.or(children))
            case .finishNot:
                if let inner = results.popLast() { results.append(.not(inner)) }
            }
        }
        return results.last ?? self
    }
}
