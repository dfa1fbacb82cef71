import Foundation

/// Checks a ``ChangeSet`` against the row counts of the old sections (and, when given, of the new
/// ones) by `UITableView`'s batch-update rules; see ``ChangeSet/validate(oldSectionCounts:newSectionCounts:)``.
///
/// One pass per step, in this order (so the first broken rule is the one reported): sections,
/// the old state's paths, the new state's sections, the row counts, the new state's paths, and
/// where updated rows land.
struct ChangeSetValidator {
    /// Why an index path is named.
    private enum Role: String {
        case deletedRow = "deleted row", moveSource = "move source", updateSource = "updated row (old path)"
        case insertedRow = "inserted row", moveDestination = "move destination", updateDestination = "updated row (new path)"
    }

    private let change: ChangeSet
    private let oldCounts: [Int]
    private let givenCounts: [Int]?
    private var newSectionCount = 0
    /// Each surviving old section's new index, -1 for a deleted one.
    private var oldToNew: [Int] = []
    /// Each continuing new section's old index, -1 for an inserted one.
    private var newToOld: [Int] = []
    private var oldRoles: [IndexPath: Role] = [:]
    private var newRoles: [IndexPath: Role] = [:]
    /// Old section -> items deleted or moved out.
    private var leavingBySection: [Int: [Int]] = [:]
    /// New section -> items inserted or moved in.
    private var arrivingBySection: [Int: [Int]] = [:]
    private var movedInCount: [Int: Int] = [:]
    private var newCounts: [Int] = []

    init(change: ChangeSet, oldCounts: [Int], givenCounts: [Int]?) {
        self.change = change
        self.oldCounts = oldCounts
        self.givenCounts = givenCounts
    }

    /// Runs every check; returns the new section counts: the given ones, or those the change
    /// set implies.
    mutating func newSectionCounts() throws -> [Int] {
        try checkSections()
        try matchSections()
        try claimOldPaths()
        try placeNewPaths()
        try countRows()
        try claimNewPaths()
        try checkUpdateLandings()
        return newCounts
    }

    private func invalid(_ rule: String) -> PersistError {
        PersistError(.misuse, "Invalid change set: " + rule)
    }

    private func text(_ path: IndexPath) -> String { ChangeSet.text(path) }

    // MARK: Sections

    /// Row counts are not negative, section indexes are in range, the section count adds up.
    private mutating func checkSections() throws {
        if let section = oldCounts.firstIndex(where: { $0 < 0 }) {
            throw invalid("old section \(section) has a negative row count")
        }
        if let givenCounts, let section = givenCounts.firstIndex(where: { $0 < 0 }) {
            throw invalid("new section \(section) has a negative row count")
        }
        let oldSectionCount = oldCounts.count
        for section in change.deletedSections where section < 0 || section >= oldSectionCount {
            throw invalid("deleted section \(section) is out of range: the old state has \(oldSectionCount) sections")
        }
        let deleted = change.deletedSections.count, inserted = change.insertedSections.count
        newSectionCount = oldSectionCount - deleted + inserted
        if let givenCounts, givenCounts.count != newSectionCount {
            throw invalid("the section count does not add up: \(oldSectionCount) old - \(deleted) deleted"
                + " + \(inserted) inserted = \(newSectionCount), but the new state has \(givenCounts.count) sections")
        }
        for section in change.insertedSections where section < 0 || section >= newSectionCount {
            throw invalid("inserted section \(section) is out of range: the new state has \(newSectionCount) sections")
        }
    }

    /// Each surviving old section continues as one new section, in order.
    private mutating func matchSections() throws {
        oldToNew = [Int](repeating: -1, count: oldCounts.count)
        newToOld = [Int](repeating: -1, count: newSectionCount)
        var nextNew = 0
        for section in 0..<oldCounts.count where !change.deletedSections.contains(section) {
            while change.insertedSections.contains(nextNew) { nextNew += 1 }
            guard nextNew < newSectionCount else { throw invalid("the sections do not add up") }
            oldToNew[section] = nextNew
            newToOld[nextNew] = section
            nextNew += 1
        }
    }

    // MARK: The old state

    /// Every path of the old state a row, in range, named once; no move or update out of a
    /// deleted section.
    private mutating func claimOldPaths() throws {
        for path in change.deletedRows { try claimOld(path, as: .deletedRow) }
        for move in change.movedRows {
            try claimOld(move.from, as: .moveSource)
            if change.deletedSections.contains(move.from[0]) {
                throw invalid("move \(text(move.from)) -> \(text(move.to)) leaves deleted section \(move.from[0]): report a delete and an insert")
            }
        }
        for update in change.updatedRows {
            try claimOld(update.from, as: .updateSource)
            if change.deletedSections.contains(update.from[0]) {
                throw invalid("updated row \(text(update.from)) -> \(text(update.to)) is in deleted section \(update.from[0])")
            }
        }
    }

    private mutating func claimOld(_ path: IndexPath, as role: Role) throws {
        guard path.count == 2 else {
            throw invalid("\(role.rawValue) \(text(path)) does not name a row: it needs a section and an item")
        }
        let section = path[0], item = path[1]
        guard section >= 0, section < oldCounts.count else {
            throw invalid("\(role.rawValue) \(text(path)) is out of range: the old state has \(oldCounts.count) sections")
        }
        guard item >= 0, item < oldCounts[section] else {
            throw invalid("\(role.rawValue) \(text(path)) is out of range: old section \(section) has \(oldCounts[section]) rows")
        }
        if let previous = oldRoles.updateValue(role, forKey: path) {
            if Set([previous, role]) == [.moveSource, .updateSource] {
                throw invalid("row \(text(path)) is both moved and updated: a moved row is not also an update")
            }
            throw invalid("row \(text(path)) is named twice in the old state: as \(previous.rawValue) and as \(role.rawValue)")
        }
        if role != .updateSource { leavingBySection[section, default: []].append(item) }
    }

    // MARK: The new state

    /// Every path of the new state a row in a section in range, to count the rows arriving in
    /// each; no move or update into an inserted section, no update changing section.
    private mutating func placeNewPaths() throws {
        for path in change.insertedRows { try placeNew(path, as: .insertedRow) }
        for move in change.movedRows {
            try placeNew(move.to, as: .moveDestination)
            if change.insertedSections.contains(move.to[0]) {
                throw invalid("move \(text(move.from)) -> \(text(move.to)) enters inserted section \(move.to[0]): report a delete and an insert")
            }
        }
        for update in change.updatedRows {
            try placeNew(update.to, as: .updateDestination)
            if change.insertedSections.contains(update.to[0]) {
                throw invalid("updated row \(text(update.from)) -> \(text(update.to)) is in inserted section \(update.to[0])")
            }
            let continued = oldToNew[update.from[0]]
            if update.to[0] != continued {
                throw invalid("updated row \(text(update.from)) -> \(text(update.to)) changes section: old section \(update.from[0])"
                    + " continues as new section \(continued); a row that changes section is a move")
            }
        }
    }

    private mutating func placeNew(_ path: IndexPath, as role: Role) throws {
        guard path.count == 2 else {
            throw invalid("\(role.rawValue) \(text(path)) does not name a row: it needs a section and an item")
        }
        guard path[0] >= 0, path[0] < newSectionCount else {
            throw invalid("\(role.rawValue) \(text(path)) is out of range: the new state has \(newSectionCount) sections")
        }
        if role != .updateDestination { arrivingBySection[path[0], default: []].append(path[1]) }
        if role == .moveDestination { movedInCount[path[0], default: 0] += 1 }
    }

    /// Each new section's row count: what stays of its old section plus what arrives; checked
    /// against the given counts.
    private mutating func countRows() throws {
        newCounts.reserveCapacity(newSectionCount)
        for section in 0..<newSectionCount {
            let arriving = arrivingBySection[section]?.count ?? 0
            let oldSection = newToOld[section]
            let leaving = oldSection >= 0 ? leavingBySection[oldSection]?.count ?? 0 : 0
            let (expected, overflow) = ((oldSection >= 0 ? oldCounts[oldSection] : 0) - leaving).addingReportingOverflow(arriving)
            if overflow { throw invalid("the row count of new section \(section) overflows") }
            if let givenCounts, givenCounts[section] != expected {
                throw invalid("the row count of new section \(section) does not add up: "
                    + rowCountExplanation(section, expected: expected, arriving: arriving, leaving: leaving)
                    + ", but the new state has \(givenCounts[section])")
            }
            newCounts.append(expected)
        }
    }

    /// How new section `section` comes to `expected` rows.
    private func rowCountExplanation(_ section: Int, expected: Int, arriving: Int, leaving: Int) -> String {
        let movedIn = movedInCount[section] ?? 0
        let oldSection = newToOld[section]
        guard oldSection >= 0 else {
            return "inserted section \(section) has \(arriving - movedIn) inserted + \(movedIn) moved in = \(expected) rows"
        }
        let deleted = change.deletedRows.lazy.filter { $0[0] == oldSection }.count
        return "old section \(oldSection) has \(oldCounts[oldSection]) rows - \(deleted) deleted"
            + " - \(leaving - deleted) moved out + \(arriving - movedIn) inserted + \(movedIn) moved in = \(expected)"
    }

    /// Every path of the new state in range and named once.
    private mutating func claimNewPaths() throws {
        for path in change.insertedRows { try claimNew(path, as: .insertedRow) }
        for move in change.movedRows { try claimNew(move.to, as: .moveDestination) }
        for update in change.updatedRows { try claimNew(update.to, as: .updateDestination) }
    }

    private mutating func claimNew(_ path: IndexPath, as role: Role) throws {
        let section = path[0], item = path[1]
        guard item >= 0, item < newCounts[section] else {
            throw invalid("\(role.rawValue) \(text(path)) is out of range: new section \(section) has \(newCounts[section]) rows")
        }
        if let previous = newRoles.updateValue(role, forKey: path) {
            throw invalid("row \(text(path)) is named twice in the new state: as \(previous.rawValue) and as \(role.rawValue)")
        }
    }

    // MARK: Updates

    /// Each updated row's new path is where the batch puts the row.
    private mutating func checkUpdateLandings() throws {
        guard !change.updatedRows.isEmpty else { return }
        for key in Array(leavingBySection.keys) { leavingBySection[key]?.sort() }
        for key in Array(arrivingBySection.keys) { arrivingBySection[key]?.sort() }
        for update in change.updatedRows {
            let landing = landing(of: update.from, in: update.to[0])
            if landing != update.to[1] {
                throw invalid("updated row \(text(update.from)) -> \(text(update.to)) does not follow its row:"
                    + " the batch puts that row at \(text(IndexPath(item: landing, section: update.to[0])))")
            }
        }
    }

    /// The item at which the batch puts the staying row at old path `from`, in new section
    /// `section` (the sorted leaving and arriving items are ready).
    private func landing(of from: IndexPath, in section: Int) -> Int {
        let leaving = leavingBySection[from[0]] ?? []
        let rank = from[1] - ChangeSet.countLess(than: from[1], in: leaving)
        // The rank-th row that is not an arrival: arrival slot `a[i]` comes before it
        // exactly when the `a[i] - i` rows before that slot number at most `rank`.
        let arriving = arrivingBySection[section] ?? []
        var low = 0, high = arriving.count
        while low < high {
            let middle = (low + high) / 2
            if arriving[middle] - middle <= rank { low = middle + 1 } else { high = middle }
        }
        return rank &+ low     // wraps (and then fails the check) only for absurd counts
    }
}
