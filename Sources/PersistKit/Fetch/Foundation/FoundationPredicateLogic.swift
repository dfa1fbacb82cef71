/// `AND`, `OR` and `NOT` builders that fold constants, so translated predicates stay small and
/// impossible cases disappear.
enum FoundationPredicateLogic {
    static func and(_ nodes: [PredicateNode]) -> PredicateNode {
        var parts: [PredicateNode] = []
        for node in nodes {
            switch node {
            case .constant(true): continue
            case .constant(false): return .constant(false)
            case .and(let inner): parts.append(contentsOf: inner)
            default: parts.append(node)
            }
        }
        if parts.isEmpty { return .constant(true) }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    static func and(_ a: PredicateNode, _ b: PredicateNode) -> PredicateNode { and([a, b]) }

    static func or(_ nodes: [PredicateNode]) -> PredicateNode {
        var parts: [PredicateNode] = []
        for node in nodes {
            switch node {
            case .constant(false): continue
            case .constant(true): return .constant(true)
            case .or(let inner): parts.append(contentsOf: inner)
            default: parts.append(node)
            }
        }
        if parts.isEmpty { return .constant(false) }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    static func not(_ node: PredicateNode) -> PredicateNode {
        switch node {
        case .constant(let value): return .constant(!value)
        case .not(let inner): return inner
        default: return .not(node)
        }
    }

    /// Whether a condition is the constant false (a case that cannot happen).
    static func isFalse(_ node: PredicateNode) -> Bool {
        if case .constant(false) = node { return true }
        return false
    }
}
