/// A group being normalized: its kind (nil for the root), the children still to visit (a stack,
/// with the polarity each is seen with) and the normalized children so far.
struct NormalizationFrame {
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
        default:
            return kind ? .and(NormalizationFrame.mergingEqualities(results, negated: true))
                : .or(NormalizationFrame.mergingEqualities(results, negated: false))
        }
    }

    /// `a == 1 OR a == 2 OR a IN {3}` as `a IN {1, 2, 3}`, and in an AND (`negated`)
    /// `a != 1 AND a != 2 AND NOT a IN {3}` as `NOT a IN {1, 2, 3}`: one expression however many
    /// values, which SQLite answers with one index lookup per value. Each list takes the place
    /// of its first term.
    private static func mergingEqualities(_ terms: [PredicateNode], negated: Bool) -> [PredicateNode] {
        /// The attribute and values of a term that merges, nil for others.
        func members(_ term: PredicateNode) -> (String, [SQLValue])? {
            // `NOT a != 1` is `a == 1` exactly: comparisons are two-valued.
            switch (term, negated) {
            case (.compare(let name, .equal, let value), false), (.not(.compare(let name, .notEqual, let value)), false),
                 (.compare(let name, .notEqual, let value), true), (.not(.compare(let name, .equal, let value)), true):
                return (name, [value])
            case (.inList(let name, let values), false), (.not(.inList(let name, let values)), true):
                return (name, values)
            default: return nil
            }
        }
        var counts: [String: Int] = [:]
        for term in terms {
            if let (name, _) = members(term) { counts[name, default: 0] += 1 }
        }
        guard counts.values.contains(where: { $0 > 1 }) else { return terms }
        var lists: [String: [SQLValue]] = [:]
        var slots: [String: Int] = [:]
        var combined: [PredicateNode] = []
        combined.reserveCapacity(terms.count)
        for term in terms {
            guard let (name, values) = members(term), let count = counts[name], count > 1 else {
                combined.append(term)
                continue
            }
            if slots[name] == nil {
                slots[name] = combined.count
                combined.append(term)
            }
            lists[name, default: []].append(contentsOf: values)
        }
        for (name, slot) in slots {
            let list = PredicateNode.inList(attribute: name, lists[name] ?? [])
            combined[slot] = negated ? .not(list) : list
        }
        return combined
    }
}
