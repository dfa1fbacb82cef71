extension PredicateNode {
    /// The predicate in the form the SQL compiler and the in-memory evaluator take, so both see
    /// the same tree:
    ///
    /// - groups are flat: no AND directly inside an AND, no OR inside an OR;
    /// - `NOT` only wraps comparisons (pushed down with De Morgan's laws, exact in two-valued logic);
    /// - constants are folded away (the result is a constant only when the whole predicate is);
    /// - in an OR, `==` comparisons and `IN` lists on the same attribute become one `IN` list;
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
            case .count(_, let op, let value): return .constant(PredicateValues.compare(.integer(0), op, value))
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

/// A group being normalized: its kind (nil for the root), the children still to visit (a stack,
/// with the polarity each is seen with) and the normalized children so far.
private struct NormalizationFrame {
    /// true for AND, false for OR, nil for the root.
    var kind: Bool?
    var pending: [(PredicateNode, Bool)]
    var results: [PredicateNode] = []
    /// A child decided the group (false in an AND, true in an OR); the rest are still visited
    /// so that their errors surface.
    var absorbed = false

    mutating func add(_ node: PredicateNode) {
        guard let kind else {
            results.append(node)
            return
        }
        switch node {
        case .constant(let value):
            if value != kind { absorbed = true }
        case .and(let children) where kind:
            results.append(contentsOf: children)
        case .or(let children) where !kind:
            results.append(contentsOf: children)
        default:
            if !absorbed { results.append(node) }
        }
    }

    func finish() -> PredicateNode {
        guard let kind else { return results.first ?? .constant(true) }
        if absorbed { return .constant(!kind) }
        switch results.count {
        case 0: return .constant(kind)
        case 1: return results[0]
        default: return kind ? .and(results) : .or(NormalizationFrame.mergingEqualities(results))
        }
    }

    /// `a == 1 OR a == 2 OR a IN {3}` as `a IN {1, 2, 3}`: one expression however many values,
    /// which SQLite answers with one index lookup. Each list takes the place of its first term.
    private static func mergingEqualities(_ terms: [PredicateNode]) -> [PredicateNode] {
        var counts: [String: Int] = [:]
        for term in terms {
            switch term {
            case .compare(let name, .equal, _), .inList(let name, _): counts[name, default: 0] += 1
            default: break
            }
        }
        guard counts.values.contains(where: { $0 > 1 }) else { return terms }
        var lists: [String: [SQLValue]] = [:]
        var slots: [String: Int] = [:]
        var merged: [PredicateNode] = []
        merged.reserveCapacity(terms.count)
        for term in terms {
            let name: String, values: [SQLValue]
            switch term {
            case .compare(let attribute, .equal, let value): (name, values) = (attribute, [value])
            case .inList(let attribute, let list): (name, values) = (attribute, list)
            default:
                merged.append(term)
                continue
            }
            guard let count = counts[name], count > 1 else {
                merged.append(term)
                continue
            }
            if slots[name] == nil {
                slots[name] = merged.count
                merged.append(term)
            }
            lists[name, default: []].append(contentsOf: values)
        }
        for (name, slot) in slots {
            merged[slot] = .inList(attribute: name, lists[name] ?? [])
        }
        return merged
    }
}
