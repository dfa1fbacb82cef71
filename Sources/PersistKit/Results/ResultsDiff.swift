import Foundation

/// The sections of a sorted results list: contiguous runs of its flat positions.
///
/// Section `i` spans `starts[i] ..< (starts[i + 1] or count)`. A well-formed layout has no
/// empty section: `starts` begins at 0 (unless `count` is 0, when there are no sections) and
/// increases strictly, below `count`. The one exception is a layout of a single section, which
/// may be empty: an unsectioned controller's one section, which stays when its last row goes.
struct SectionLayout: Sendable, Equatable {
    /// The section names; names identify sections across changes.
    var names: [String]
    /// The flat index of each section's first row.
    var starts: [Int]
    /// The number of rows in all sections.
    var count: Int

    init(names: [String], starts: [Int], count: Int) {
        self.names = names
        self.starts = starts
        self.count = count
    }

    /// A layout from the row count of each section.
    init(names: [String], counts: [Int]) {
        var starts: [Int] = []
        starts.reserveCapacity(counts.count)
        var total = 0
        for rows in counts {
            starts.append(total)
            total += rows
        }
        self.init(names: names, starts: starts, count: total)
    }

    /// The number of sections.
    var sectionCount: Int { starts.count }

    /// The flat index just past section `section`'s last row.
    func end(of section: Int) -> Int {
        section + 1 < starts.count ? starts[section + 1] : count
    }

    /// The number of rows of section `section`.
    func rowCount(of section: Int) -> Int { end(of: section) - starts[section] }

    /// The section that holds flat position `position` (`0 ..< count` in a well-formed layout).
    func section(containing position: Int) -> Int {
        var low = 0, high = starts.count          // first start greater than position
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= position { low = middle + 1 } else { high = middle }
        }
        return max(low - 1, 0)
    }

    /// The index path of flat position `position`.
    func path(of position: Int) -> IndexPath {
        let section = section(containing: position)
        return IndexPath(item: position - starts[section], section: section)
    }

    /// The flat position of an index path, or nil when the path names no row of the layout.
    func position(of path: IndexPath) -> Int? {
        guard path.count == 2, path[0] >= 0, path[0] < starts.count, path[1] >= 0 else { return nil }
        let position = starts[path[0]] + path[1]
        return position < end(of: path[0]) ? position : nil
    }

    /// What makes the layout malformed, or nil when it is well-formed.
    var problem: String? {
        if names.count != starts.count {
            return "\(names.count) section names for \(starts.count) sections"
        }
        if count < 0 { return "negative row count \(count)" }
        guard let first = starts.first else {
            return count == 0 ? nil : "\(count) rows in no section"
        }
        if first != 0 { return "the first section starts at \(first), not 0" }
        for section in 1..<starts.count where starts[section] <= starts[section - 1] {
            return "section \(section - 1) is empty or its start is out of order"
        }
        if let last = starts.last, last >= count, starts.count > 1 { return "the last section is empty" }
        return nil
    }
}

/// What changed between two states of a sorted results list, in flat positions.
struct ResultsDiffInput: Sendable {
    /// The sections before the change.
    var old: SectionLayout
    /// The sections after the change.
    var new: SectionLayout
    /// Old flat positions of the objects no longer in the results.
    var removed: [Int]
    /// New flat positions of the objects new to the results.
    var inserted: [Int]
    /// The survivors that changed in any attribute: their positions in the old and new lists.
    ///
    /// Every other survivor is unchanged: it kept its sort keys, hence its section and its
    /// order relative to the other unchanged survivors.
    var updated: [(old: Int, new: Int)]

    init(old: SectionLayout, new: SectionLayout, removed: [Int] = [], inserted: [Int] = [],
         updated: [(old: Int, new: Int)] = []) {
        self.old = old
        self.new = new
        self.removed = removed
        self.inserted = inserted
        self.updated = updated
    }
}

/// Why a ``ResultsDiffInput`` describes no possible change: a bug in whoever built it.
struct ResultsDiffInconsistency: Error, Sendable, CustomStringConvertible {
    /// What does not fit.
    var description: String
}

/// Turns what changed in a sorted, sectioned results list into a minimal ``ChangeSet``.
///
/// The cost is O(k log k + k log s + s) for k changed objects and s sections, whatever the number
/// of rows: the unchanged survivors are never visited, only counted by binary search.
///
/// How each changed object is reported:
/// - A removed object is a deleted row, an inserted object an inserted row.
/// - Sections are matched by name (the i-th section of a name in the old state with the i-th of
///   that name in the new state); an old section with no match is deleted, a new one inserted.
/// - An unchanged survivor keeps its order among the unchanged, so it never moves and is never
///   reported. An updated survivor is anchored by its gap: the number of unchanged survivors
///   before it. It moves when its section changes, when its gap changes, or, among the updated
///   survivors of the same section and gap, when it is not in a longest run of them that keeps
///   its old order. Otherwise it is an update. So the moves are as few as possible.
/// - A move out of a deleted section or into an inserted one is a delete plus an insert.
enum ResultsDiff {
    /// The change set from `input`.
    ///
    /// An input that describes no possible change (malformed layouts, positions out of range or
    /// named twice, unchanged survivors that change section) gets a change set that deletes every
    /// old section and inserts every new one: still a valid batch, but O(n). Call
    /// ``incrementalChangeSet(for:)`` to learn what was wrong.
    static func changeSet(for input: ResultsDiffInput) -> ChangeSet {
        switch incrementalChangeSet(for: input) {
        case .success(let changes): changes
        case .failure: reloadChangeSet(from: input.old, to: input.new)
        }
    }

    /// A change set that replaces everything: every old section and row deleted, every new
    /// section and row inserted. Valid for any two layouts, even malformed ones.
    static func reloadChangeSet(from old: SectionLayout, to new: SectionLayout) -> ChangeSet {
        func rows(of layout: SectionLayout) -> [IndexPath] {
            var paths: [IndexPath] = []
            for section in 0..<min(layout.starts.count, layout.names.count) {
                let rowCount = max(0, layout.end(of: section) - layout.starts[section])
                for item in 0..<rowCount { paths.append(IndexPath(item: item, section: section)) }
            }
            return paths
        }
        return ChangeSet(
            deletedSections: IndexSet(integersIn: 0..<min(old.starts.count, old.names.count)),
            insertedSections: IndexSet(integersIn: 0..<min(new.starts.count, new.names.count)),
            deletedRows: rows(of: old),
            insertedRows: rows(of: new))
    }

    /// The minimal change set from `input`, or what makes `input` inconsistent.
    static func incrementalChangeSet(for input: ResultsDiffInput) -> Result<ChangeSet, ResultsDiffInconsistency> {
        func inconsistent(_ what: String) -> Result<ChangeSet, ResultsDiffInconsistency> {
            .failure(ResultsDiffInconsistency(description: what))
        }
        let old = input.old, new = input.new
        if let problem = old.problem { return inconsistent("old layout: " + problem) }
        if let problem = new.problem { return inconsistent("new layout: " + problem) }

        // The positions that are not unchanged survivors, sorted, in each state.
        let removed = input.removed.sorted()
        let inserted = input.inserted.sorted()
        let updatedOld = input.updated.map(\.old).sorted()
        let updatedNew = input.updated.map(\.new).sorted()
        guard let excludedOld = mergedDistinct(removed, updatedOld, below: old.count) else {
            return inconsistent("a removed or updated old position is out of range or named twice")
        }
        guard let excludedNew = mergedDistinct(inserted, updatedNew, below: new.count) else {
            return inconsistent("an inserted or updated new position is out of range or named twice")
        }
        let unchangedCount = old.count - excludedOld.count
        guard new.count - excludedNew.count == unchangedCount else {
            return inconsistent("\(unchangedCount) unchanged survivors in the old state, \(new.count - excludedNew.count) in the new")
        }

        // Sections, and the unchanged survivors staying in theirs.
        let sections = SectionMatch(old: old.names, new: new.names)
        if let problem = sections.unchangedProblem(old: old, excludedOld: excludedOld, new: new, excludedNew: excludedNew) {
            return inconsistent(problem)
        }

        // Each updated survivor: relocated (moved, or deleted and inserted) or a candidate update.
        struct Survivor {
            var old: Int, new: Int
            var oldSection: Int, newSection: Int
            var gap: Int
        }
        var relocated: [Survivor] = []
        var candidates: [Survivor] = []
        candidates.reserveCapacity(input.updated.count)
        for update in input.updated {
            let oldSection = old.section(containing: update.old)
            let newSection = new.section(containing: update.new)
            let oldGap = update.old - ChangeSet.countLess(than: update.old, in: excludedOld)
            let newGap = update.new - ChangeSet.countLess(than: update.new, in: excludedNew)
            let survivor = Survivor(old: update.old, new: update.new, oldSection: oldSection, newSection: newSection, gap: newGap)
            if sections.newIndex(ofOld: oldSection) != newSection || oldGap != newGap {
                relocated.append(survivor)
            } else {
                candidates.append(survivor)
            }
        }
        // Candidates in new order fall into runs of equal (section, gap); in each run, the longest
        // subsequence in old order stays, the others move.
        candidates.sort { $0.new < $1.new }
        var updates: [Survivor] = []
        updates.reserveCapacity(candidates.count)
        var runStart = 0
        while runStart < candidates.count {
            var runEnd = runStart + 1
            while runEnd < candidates.count, candidates[runEnd].gap == candidates[runStart].gap,
                  candidates[runEnd].newSection == candidates[runStart].newSection {
                runEnd += 1
            }
            let run = candidates[runStart..<runEnd]
            let stays = longestIncreasingSubsequence(run.map(\.old))
            for (survivor, stay) in zip(run, stays) {
                if stay { updates.append(survivor) } else { relocated.append(survivor) }
            }
            runStart = runEnd
        }

        // The change set.
        var deletedFlat = removed
        var insertedFlat = inserted
        var moves: [Survivor] = []
        for survivor in relocated {
            if sections.isDeleted(old: survivor.oldSection) || sections.isInserted(new: survivor.newSection) {
                deletedFlat.append(survivor.old)
                insertedFlat.append(survivor.new)
            } else {
                moves.append(survivor)
            }
        }
        if deletedFlat.count != removed.count {
            deletedFlat.sort()
            insertedFlat.sort()
        }
        moves.sort { $0.new < $1.new }
        return .success(ChangeSet(
            deletedSections: sections.deletedSections,
            insertedSections: sections.insertedSections,
            deletedRows: deletedFlat.map(old.path(of:)),
            insertedRows: insertedFlat.map(new.path(of:)),
            movedRows: moves.map { (from: old.path(of: $0.old), to: new.path(of: $0.new)) },
            updatedRows: updates.map { (from: old.path(of: $0.old), to: new.path(of: $0.new)) }))
    }

    /// The two ascending arrays merged, or nil when they share a value or one is outside `0..<limit`.
    static func mergedDistinct(_ a: [Int], _ b: [Int], below limit: Int) -> [Int]? {
        var merged: [Int] = []
        merged.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count || j < b.count {
            let value: Int
            if j == b.count || (i < a.count && a[i] < b[j]) {
                value = a[i]
                i += 1
            } else {
                value = b[j]
                j += 1
            }
            if value < 0 || value >= limit { return nil }
            if let last = merged.last, last == value { return nil }
            merged.append(value)
        }
        return merged
    }

    /// Which elements of `values` (distinct) form one longest strictly increasing subsequence.
    ///
    /// Patience sorting, O(m log m).
    static func longestIncreasingSubsequence(_ values: [Int]) -> [Bool] {
        guard values.count > 1 else { return Array(repeating: true, count: values.count) }
        var tails: [Int] = []                     // tails[l]: index of the smallest tail of a run of length l + 1
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var member = [Bool](repeating: false, count: values.count)
        var index = tails.last ?? -1
        while index >= 0 {
            member[index] = true
            index = previous[index]
        }
        return member
    }
}

/// Which old section continues as which new section.
///
/// Sections are identified by name: the i-th old section of a name is the i-th new section of
/// that name. Matched sections must keep their order (they do when the section key is the first
/// sort key); a match that would reorder sections is dropped (the old section deleted, the new one
/// inserted), keeping the largest set of matches in order.
private struct SectionMatch {
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
        /// Walks a layout's sections in order, giving each one's range of unchanged survivors.
        struct Walker {
            let layout: SectionLayout
            let excluded: [Int]
            var next = 0           // index in `excluded` of the first position not before the section
            mutating func unchanged(in section: Int) -> (first: Int, count: Int) {
                let start = layout.starts[section], end = layout.end(of: section)
                while next < excluded.count, excluded[next] < start { next += 1 }
                let before = next
                while next < excluded.count, excluded[next] < end { next += 1 }
                return (start - before, (end - start) - (next - before))
            }
        }
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
}
