import Foundation

/// Which old section continues as which new section.
///
/// Sections are identified by name: the i-th old section of a name is the i-th new section of
/// that name. Matched sections must keep their order (they do when the section key is the first
/// sort key); a match that would reorder sections is dropped (the old section deleted, the new one
/// inserted), keeping the largest set of matches in order.
struct SectionMatch {
    /// Whether the names are the same in both states, so section i continues as section i.
    private var isIdentity: Bool
    /// For each old section its new index, or -1 when deleted (empty when `isIdentity`).
    private var oldToNew: [Int] = []
    /// For each new section its old index, or -1 when inserted (empty when `isIdentity`).
    private var newToOld: [Int] = []

    init(old: [String], new: [String]) {
        isIdentity = old == new
        guard !isIdentity else { return }
        var newByName: [String: [Int]] = [:]
        for (index, name) in new.enumerated() { newByName[name, default: []].append(index) }
        var seen: [String: Int] = [:]
        var pairs: [(old: Int, new: Int)] = []
        for (index, name) in old.enumerated() {
            let occurrence = seen[name, default: 0]
            seen[name] = occurrence + 1
            if let candidates = newByName[name], occurrence < candidates.count {
                pairs.append((index, candidates[occurrence]))
            }
        }
        oldToNew = Array(repeating: -1, count: old.count)
        newToOld = Array(repeating: -1, count: new.count)
        let keep = ResultsDiff.longestIncreasingSubsequence(pairs.map(\.new))
        for (pair, kept) in zip(pairs, keep) where kept {
            oldToNew[pair.old] = pair.new
            newToOld[pair.new] = pair.old
        }
    }

    /// The new index of old section `section`, or nil when it was deleted.
    func newIndex(ofOld section: Int) -> Int? {
        if isIdentity { return section }
        let index = oldToNew[section]
        return index >= 0 ? index : nil
    }

    func isDeleted(old section: Int) -> Bool { !isIdentity && oldToNew[section] < 0 }

    func isInserted(new section: Int) -> Bool { !isIdentity && newToOld[section] < 0 }

    var deletedSections: IndexSet {
        var set = IndexSet()
        for (index, match) in oldToNew.enumerated() where match < 0 { set.insert(index) }
        return set
    }

    var insertedSections: IndexSet {
        var set = IndexSet()
        for (index, match) in newToOld.enumerated() where match < 0 { set.insert(index) }
        return set
    }

    /// Why the unchanged survivors do not stay in their sections, or nil when they do.
    ///
    /// Each section holds a contiguous range of the unchanged survivors (numbered in order); an
    /// old section with any must continue as a new section holding the same range. O(s + k).
    func unchangedProblem(old: SectionLayout, excludedOld: [Int], new: SectionLayout, excludedNew: [Int]) -> String? {
        var oldWalker = Walker(layout: old, excluded: excludedOld)
        var newWalker = Walker(layout: new, excluded: excludedNew)
        if isIdentity {
            for section in 0..<old.sectionCount {
                let before = oldWalker.unchanged(in: section), after = newWalker.unchanged(in: section)
                if before.count + after.count > 0, before != after {
                    return "unchanged survivors change section: section \(section) (\"\(old.names[section])\")"
                }
            }
            return nil
        }
        var newRanges: [(first: Int, count: Int)] = []
        newRanges.reserveCapacity(new.sectionCount)
        for section in 0..<new.sectionCount { newRanges.append(newWalker.unchanged(in: section)) }
        for section in 0..<old.sectionCount {
            let before = oldWalker.unchanged(in: section)
            guard before.count > 0 else { continue }
            let match = oldToNew[section]
            guard match >= 0 else {
                return "old section \(section) (\"\(old.names[section])\") holds unchanged survivors but has no matching new section"
            }
            if newRanges[match] != before {
                return "unchanged survivors change section: old section \(section) (\"\(old.names[section])\") and new section \(match)"
            }
        }
        return nil
    }

    /// Walks a layout's sections in order, giving each one's range of unchanged survivors.
    private struct Walker {
        let layout: SectionLayout
        let excluded: [Int]
        var next = 0           // index in `excluded` of the first position not before the section

        init(layout: SectionLayout, excluded: [Int]) {
            self.layout = layout
            self.excluded = excluded
        }

        mutating func unchanged(in section: Int) -> (first: Int, count: Int) {
            let start = layout.starts[section], end = layout.end(of: section)
            while next < excluded.count, excluded[next] < start { next += 1 }
            let before = next
            while next < excluded.count, excluded[next] < end { next += 1 }
            return (start - before, (end - start) - (next - before))
        }
    }
}
