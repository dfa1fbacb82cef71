import Foundation

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
        switch Positions.of(input) {
        case .failure(let inconsistency):
            return .failure(inconsistency)
        case .success(let positions):
            var (relocated, candidates) = survivors(input.updated, positions)
            let updates = keepLongestOrderedRuns(of: candidates, relocating: &relocated)
            return .success(changeSet(positions, relocated: relocated, updates: updates))
        }
    }

    /// The input's positions, checked and sorted, with the sections matched.
    struct Positions {
        var old: SectionLayout, new: SectionLayout
        var removed: [Int], inserted: [Int]
        /// The positions that are not unchanged survivors, sorted, in each state.
        var excludedOld: [Int], excludedNew: [Int]
        var sections: SectionMatch

        /// The positions of `input`, or why they describe no possible change.
        static func of(_ input: ResultsDiffInput) -> Result<Positions, ResultsDiffInconsistency> {
            func inconsistent(_ what: String) -> Result<Positions, ResultsDiffInconsistency> {
                .failure(ResultsDiffInconsistency(description: what))
            }
            let old = input.old, new = input.new
            if let problem = old.problem { return inconsistent("old layout: " + problem) }
            if let problem = new.problem { return inconsistent("new layout: " + problem) }
            let removed = input.removed.sorted(), inserted = input.inserted.sorted()
            guard let excludedOld = interleavedDistinct(removed, input.updated.map(\.old).sorted(), below: old.count) else {
                return inconsistent("a removed or updated old position is out of range or named twice")
            }
            guard let excludedNew = interleavedDistinct(inserted, input.updated.map(\.new).sorted(), below: new.count) else {
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
            return .success(Positions(old: old, new: new, removed: removed, inserted: inserted,
                                      excludedOld: excludedOld, excludedNew: excludedNew, sections: sections))
        }
    }

    /// An updated survivor: its positions, sections, and its gap (the unchanged survivors before it).
    struct Survivor {
        var old: Int, new: Int
        var oldSection: Int, newSection: Int
        var gap: Int
    }

    /// Each updated survivor: relocated (its section or its gap changed: it moves, or is deleted
    /// and inserted) or a candidate update.
    private static func survivors(_ updated: [(old: Int, new: Int)], _ positions: Positions)
        -> (relocated: [Survivor], candidates: [Survivor]) {
        var relocated: [Survivor] = []
        var candidates: [Survivor] = []
        candidates.reserveCapacity(updated.count)
        for update in updated {
            let oldSection = positions.old.section(containing: update.old)
            let newSection = positions.new.section(containing: update.new)
            let oldGap = update.old - ChangeSet.countLess(than: update.old, in: positions.excludedOld)
            let newGap = update.new - ChangeSet.countLess(than: update.new, in: positions.excludedNew)
            let survivor = Survivor(old: update.old, new: update.new, oldSection: oldSection, newSection: newSection, gap: newGap)
            if positions.sections.newIndex(ofOld: oldSection) != newSection || oldGap != newGap {
                relocated.append(survivor)
            } else {
                candidates.append(survivor)
            }
        }
        return (relocated, candidates)
    }

    /// The candidates that stay updates: in new order they fall into runs of equal (section, gap);
    /// in each run, the longest subsequence in old order stays, the others are relocated.
    private static func keepLongestOrderedRuns(of candidates: [Survivor], relocating relocated: inout [Survivor]) -> [Survivor] {
        let candidates = candidates.sorted { $0.new < $1.new }
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
        return updates
    }

    /// The change set: a relocated survivor is a move, or a delete and an insert when it leaves a
    /// deleted section or enters an inserted one.
    private static func changeSet(_ positions: Positions, relocated: [Survivor], updates: [Survivor]) -> ChangeSet {
        let old = positions.old, new = positions.new, sections = positions.sections
        var deletedFlat = positions.removed
        var insertedFlat = positions.inserted
        var moves: [Survivor] = []
        for survivor in relocated {
            if sections.isDeleted(old: survivor.oldSection) || sections.isInserted(new: survivor.newSection) {
                deletedFlat.append(survivor.old)
                insertedFlat.append(survivor.new)
            } else {
                moves.append(survivor)
            }
        }
        if deletedFlat.count != positions.removed.count {
            deletedFlat.sort()
            insertedFlat.sort()
        }
        moves.sort { $0.new < $1.new }
        return ChangeSet(
            deletedSections: sections.deletedSections,
            insertedSections: sections.insertedSections,
            deletedRows: deletedFlat.map(old.path(of:)),
            insertedRows: insertedFlat.map(new.path(of:)),
            movedRows: moves.map { (from: old.path(of: $0.old), to: new.path(of: $0.new)) },
            updatedRows: updates.map { (from: old.path(of: $0.old), to: new.path(of: $0.new)) })
    }

    /// The two ascending arrays interleaved, or nil when they share a value or one is outside `0..<limit`.
    static func interleavedDistinct(_ a: [Int], _ b: [Int], below limit: Int) -> [Int]? {
        var interleaved: [Int] = []
        interleaved.reserveCapacity(a.count + b.count)
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
            if let last = interleaved.last, last == value { return nil }
            interleaved.append(value)
        }
        return interleaved
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
