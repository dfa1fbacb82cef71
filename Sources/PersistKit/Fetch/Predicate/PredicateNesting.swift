/// How deeply a predicate nests AND/OR groups, and the kind of group it is once `NOT` is pushed
/// down to the comparisons (`NOT (a AND b)` is `NOT a OR NOT b`, an OR group).
///
/// A group counts one level more than its deepest child, except that a child group of the same
/// kind merges into its parent (`a AND (b AND c)` is one level). Comparisons are level 0. This is
/// exactly the depth ``PredicateNode/normalized()`` finds, so a predicate accepted when it is
/// built is accepted when it is fetched.
struct PredicateNesting: Sendable, Equatable {
    enum Kind: Sendable, Equatable { case leaf, and, or }

    var depth: Int
    var kind: Kind

    static let leaf = PredicateNesting(depth: 0, kind: .leaf)

    /// The nesting of `NOT` applied to a predicate of this nesting.
    var negated: PredicateNesting {
        switch kind {
        case .leaf: return self
        case .and: return PredicateNesting(depth: depth, kind: .or)
        case .or: return PredicateNesting(depth: depth, kind: .and)
        }
    }

    /// The depth this predicate adds as a child of a group of `kind`.
    func depth(inside kind: Kind) -> Int {
        self.kind == kind ? depth - 1 : depth
    }

    /// The nesting of a group of `kind` whose children have the given nestings.
    static func group(_ kind: Kind, _ children: some Sequence<PredicateNesting>) -> PredicateNesting {
        var deepest = 0
        for child in children { deepest = max(deepest, child.depth(inside: kind)) }
        return PredicateNesting(depth: deepest + 1, kind: kind)
    }

    /// The nesting of any tree, found with an explicit stack (trees built by other code may be
    /// deep). Stops early, returning a depth above `limit`, once the limit is exceeded.
    static func of(_ node: PredicateNode, limit: Int = PredicateNode.maximumNesting) -> PredicateNesting {
        // Post-order over (node, negated) with a results stack; `open` holds the kinds of the
        // groups being visited, and `level` how many of them start a new level.
        enum Step { case visit(PredicateNode, Bool), finish(Kind, Int, Bool) }
        var steps: [Step] = [.visit(node, false)]
        var results: [PredicateNesting] = []
        var open: [Kind] = []
        var level = 0
        while let step = steps.popLast() {
            switch step {
            case .visit(let node, let negated):
                switch node {
                case .not(let inner):
                    steps.append(.visit(inner, !negated))
                case .and(let children), .or(let children):
                    var kind: Kind
                    if case .and = node { kind = .and } else { kind = .or }
                    if negated { kind = kind == .and ? .or : .and }
                    let startsLevel = open.last != kind
                    if startsLevel {
                        level += 1
                        if level > limit { return PredicateNesting(depth: level, kind: kind) }
                    }
                    open.append(kind)
                    steps.append(.finish(kind, children.count, startsLevel))
                    for child in children.reversed() { steps.append(.visit(child, negated)) }
                case .relationship(let relationship):
                    // A condition on related objects is one level above its inner predicate.
                    let inner = relationship.inner.map { of($0, limit: limit) } ?? .leaf
                    results.append(PredicateNesting(depth: inner.depth + 1, kind: .leaf))
                default:
                    results.append(.leaf)
                }
            case .finish(let kind, let count, let startedLevel):
                open.removeLast()
                if startedLevel { level -= 1 }
                let nesting = group(kind, results.suffix(count))
                results.removeLast(count)
                results.append(nesting)
            }
        }
        return results.last ?? .leaf
    }
}
