import Foundation

/// What changed in a ``FetchedResultsController``'s sections, as one batch update.
///
/// A change set is what a `UITableView` (or any list) needs to go from the old sections to the new
/// ones in one batch: deleted sections and rows are indexes in the old state, inserted sections
/// and rows are indexes in the new state, moves go from an old path to a new one, and updates
/// carry both the old and the new path of a row that changed but did not move.
///
/// - Rows in a deleted section are listed in ``deletedRows`` too, and rows in an inserted section
///   in ``insertedRows``, as `NSFetchedResultsController` reports them.
/// - Moves are minimal: rows that keep their order relative to each other do not move.
/// - A row leaving a deleted section or entering an inserted section is a delete plus an insert,
///   never a move. A moved row is never also an update, and a row is never moved to itself.
///
/// ```swift
/// let token = results.observe { change in
///     tableView.performBatchUpdates {
///         tableView.deleteSections(change.deletedSections, with: .automatic)
///         tableView.insertSections(change.insertedSections, with: .automatic)
///         tableView.deleteRows(at: change.deletedRows, with: .automatic)
///         tableView.insertRows(at: change.insertedRows, with: .automatic)
///         for move in change.movedRows { tableView.moveRow(at: move.from, to: move.to) }
///     }
///     tableView.reconfigureRows(at: change.updatedRows.map(\.to))
/// }
/// ```
public struct ChangeSet: Sendable, CustomStringConvertible {
    /// The sections that were deleted, as indexes in the old state.
    public internal(set) var deletedSections: IndexSet
    /// The sections that were inserted, as indexes in the new state.
    public internal(set) var insertedSections: IndexSet
    /// The rows that were deleted, as index paths in the old state, in ascending order.
    ///
    /// Every row of a deleted section is listed here too.
    public internal(set) var deletedRows: [IndexPath]
    /// The rows that were inserted, as index paths in the new state, in ascending order.
    ///
    /// Every row of an inserted section is listed here too.
    public internal(set) var insertedRows: [IndexPath]
    /// The rows that moved: each from its path in the old state to its path in the new state,
    /// in ascending order of destination.
    public internal(set) var movedRows: [(from: IndexPath, to: IndexPath)]
    /// The rows whose object changed but that did not move relative to the others: each with its
    /// path in the old state and its path in the new state, in ascending order.
    ///
    /// The two paths differ when rows were deleted or inserted before the row. Reload a row with
    /// `from` inside a batch update (UIKit's `reloadRows(at:)` takes old paths), or with `to`
    /// after it.
    public internal(set) var updatedRows: [(from: IndexPath, to: IndexPath)]

    /// Creates a change set; every part defaults to empty.
    init(deletedSections: IndexSet = IndexSet(), insertedSections: IndexSet = IndexSet(),
         deletedRows: [IndexPath] = [], insertedRows: [IndexPath] = [],
         movedRows: [(from: IndexPath, to: IndexPath)] = [],
         updatedRows: [(from: IndexPath, to: IndexPath)] = []) {
        self.deletedSections = deletedSections
        self.insertedSections = insertedSections
        self.deletedRows = deletedRows
        self.insertedRows = insertedRows
        self.movedRows = movedRows
        self.updatedRows = updatedRows
    }

    /// Whether nothing changed: no section or row is deleted, inserted, moved or updated.
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && deletedRows.isEmpty
            && insertedRows.isEmpty && movedRows.isEmpty && updatedRows.isEmpty
    }

    /// Every non-empty part of the change set, with index paths written `[section, item]`.
    ///
    /// ```swift
    /// print(change)   // ChangeSet(deleted rows: [0, 2]; moved rows: [1, 0] -> [0, 0])
    /// ```
    public var description: String {
        var parts: [String] = []
        func list(_ name: String, _ items: [String]) {
            if !items.isEmpty { parts.append(name + ": " + items.joined(separator: ", ")) }
        }
        list("deleted sections", deletedSections.map(String.init))
        list("inserted sections", insertedSections.map(String.init))
        list("deleted rows", deletedRows.map(Self.text))
        list("inserted rows", insertedRows.map(Self.text))
        list("moved rows", movedRows.map { Self.text($0.from) + " -> " + Self.text($0.to) })
        list("updated rows", updatedRows.map { Self.text($0.from) + " -> " + Self.text($0.to) })
        return "ChangeSet(" + (parts.isEmpty ? "empty" : parts.joined(separator: "; ")) + ")"
    }

    /// An index path as `[1, 2]`, on every platform.
    static func text(_ path: IndexPath) -> String {
        "[" + path.map(String.init).joined(separator: ", ") + "]"
    }

    // MARK: - Replay

    /// Applies the change set to old sections as one batch update, with `UITableView`'s rules,
    /// and returns the new sections.
    ///
    /// The batch removes the deleted rows and the sources of moves (old paths), removes the
    /// deleted sections, inserts the inserted sections (empty), then inserts the inserted rows and
    /// the destinations of moves (new paths, in ascending order). Every other row keeps its order.
    ///
    /// `newElement` supplies the element at the new path of every inserted, moved and updated row,
    /// in ascending order of new path. Its second argument is the row's old element for a moved or
    /// updated row, and `nil` for an inserted one; an element that is an identity (an object, an
    /// `ObjectID`) can be returned as it is.
    ///
    /// ```swift
    /// var rows: [[ObjectID]] = results.sections.map { $0.objects.map(\.objectID) }
    /// let token = results.observe { change in
    ///     do {
    ///         rows = try change.applied(to: rows) { path, old in
    ///             old ?? results.object(at: path).objectID
    ///         }
    ///     } catch {
    ///         rows = results.sections.map { $0.objects.map(\.objectID) }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - old: The sections before the change, each an array of rows.
    ///   - newElement: Gives the element at a new path: `(newPath, oldElementIfTheRowExisted)`.
    /// - Returns: The sections after the change.
    /// - Throws: ``PersistError`` with code ``PersistError/Code/misuse`` when the change set does not
    ///   fit `old` (see ``validate(oldSectionCounts:newSectionCounts:)`` for the rules), and any error
    ///   `newElement` throws.
    public func applied<Element>(
        to old: [[Element]],
        newElement: (IndexPath, Element?) throws -> Element
    ) throws -> [[Element]] {
        let newCounts = try checkedNewSectionCounts(old: old.map(\.count), new: nil)

        var leaving = Set<IndexPath>(deletedRows)
        var moveSource: [IndexPath: IndexPath] = [:]
        for move in movedRows {
            leaving.insert(move.from)
            moveSource[move.to] = move.from
        }
        var updateDestination: [IndexPath: IndexPath] = [:]
        for update in updatedRows { updateDestination[update.from] = update.to }
        let inserted = Set<IndexPath>(insertedRows)

        func broken(_ what: String) -> PersistError {
            PersistError(.misuse, "Invalid change set: \(what) (\(self))")
        }

        var result: [[Element]] = []
        result.reserveCapacity(newCounts.count)
        var oldSection = 0
        for (section, count) in newCounts.enumerated() {
            // The rows that stay, from the old section this one continues (none if inserted).
            var staying: [(item: Int, element: Element)] = []
            var source = -1
            if !insertedSections.contains(section) {
                while deletedSections.contains(oldSection) { oldSection += 1 }
                guard oldSection < old.count else { throw broken("new section \(section) continues no old section") }
                source = oldSection
                for (item, element) in old[oldSection].enumerated()
                where !leaving.contains(IndexPath(item: item, section: oldSection)) {
                    staying.append((item, element))
                }
                oldSection += 1
            }
            var rows: [Element] = []
            rows.reserveCapacity(count)
            var next = 0
            for item in 0..<count {
                let path = IndexPath(item: item, section: section)
                if inserted.contains(path) {
                    rows.append(try newElement(path, nil))
                } else if let from = moveSource[path] {
                    guard from.count == 2, old.indices.contains(from[0]), old[from[0]].indices.contains(from[1]) else {
                        throw broken("move source \(Self.text(from)) is out of range")
                    }
                    rows.append(try newElement(path, old[from[0]][from[1]]))
                } else {
                    guard next < staying.count else { throw broken("section \(section) has too few rows") }
                    let row = staying[next]
                    next += 1
                    if let destination = updateDestination[IndexPath(item: row.item, section: source)] {
                        guard destination == path else {
                            throw broken("updated row \(Self.text(IndexPath(item: row.item, section: source))) lands at \(Self.text(path)), not \(Self.text(destination))")
                        }
                        rows.append(try newElement(path, row.element))
                    } else {
                        rows.append(row.element)
                    }
                }
            }
            guard next == staying.count else { throw broken("section \(section) has too many rows") }
            result.append(rows)
        }
        return result
    }

    // MARK: - Validation

    /// Checks that the change set is a valid batch update from sections with `oldSectionCounts`
    /// rows to sections with `newSectionCounts` rows, by `UITableView`'s rules.
    ///
    /// The rules:
    /// - Every section and row index is in range: deleted sections, deleted rows, move sources and
    ///   update sources in the old state; inserted sections, inserted rows, move destinations and
    ///   update destinations in the new state. Every index path has a section and an item.
    /// - No row is named twice in the old state (deletes, move sources, update sources) or in the
    ///   new state (inserts, move destinations, update destinations); in particular no row is both
    ///   moved and updated.
    /// - No move or update leaves a deleted section or enters an inserted section.
    /// - The section count adds up: old − deleted + inserted = new.
    /// - Each new section's row count adds up: old − deleted − moved out + inserted + moved in
    ///   (an inserted section starts from 0).
    /// - An updated row stays in its section, and its new path is where the batch puts it.
    ///
    /// Rows of a deleted section may be listed in ``deletedRows`` (PersistKit lists them) or not.
    ///
    /// ```swift
    /// try change.validate(oldSectionCounts: [3, 2], newSectionCounts: [4])
    /// ```
    ///
    /// - Throws: ``PersistError`` with code ``PersistError/Code/misuse`` whose message names the
    ///   broken rule and the index paths involved.
    public func validate(oldSectionCounts: [Int], newSectionCounts: [Int]) throws {
        _ = try checkedNewSectionCounts(old: oldSectionCounts, new: newSectionCounts)
    }

    /// Why an index path is named.
    private enum Role: String {
        case deletedRow = "deleted row", moveSource = "move source", updateSource = "updated row (old path)"
        case insertedRow = "inserted row", moveDestination = "move destination", updateDestination = "updated row (new path)"
    }

    /// Checks the change set against the old section counts and, when given, the new ones.
    ///
    /// - Returns: The new section counts: the given ones, or those the change set implies.
    func checkedNewSectionCounts(old oldCounts: [Int], new givenCounts: [Int]?) throws -> [Int] {
        func invalid(_ rule: String) -> PersistError {
            PersistError(.misuse, "Invalid change set: " + rule)
        }
        func text(_ path: IndexPath) -> String { Self.text(path) }

        // Sections.
        if let section = oldCounts.firstIndex(where: { $0 < 0 }) {
            throw invalid("old section \(section) has a negative row count")
        }
        if let givenCounts, let section = givenCounts.firstIndex(where: { $0 < 0 }) {
            throw invalid("new section \(section) has a negative row count")
        }
        let oldSectionCount = oldCounts.count
        for section in deletedSections where section < 0 || section >= oldSectionCount {
            throw invalid("deleted section \(section) is out of range: the old state has \(oldSectionCount) sections")
        }
        let newSectionCount = oldSectionCount - deletedSections.count + insertedSections.count
        if let givenCounts, givenCounts.count != newSectionCount {
            throw invalid("the section count does not add up: \(oldSectionCount) old - \(deletedSections.count) deleted"
                + " + \(insertedSections.count) inserted = \(newSectionCount), but the new state has \(givenCounts.count) sections")
        }
        for section in insertedSections where section < 0 || section >= newSectionCount {
            throw invalid("inserted section \(section) is out of range: the new state has \(newSectionCount) sections")
        }
        // Each surviving old section continues as one new section, in order.
        var oldToNew = [Int](repeating: -1, count: oldSectionCount)
        var newToOld = [Int](repeating: -1, count: newSectionCount)
        var nextNew = 0
        for section in 0..<oldSectionCount where !deletedSections.contains(section) {
            while insertedSections.contains(nextNew) { nextNew += 1 }
            guard nextNew < newSectionCount else { throw invalid("the sections do not add up") }
            oldToNew[section] = nextNew
            newToOld[nextNew] = section
            nextNew += 1
        }

        // The old state: every path a row, in range, named once.
        var oldRoles: [IndexPath: Role] = [:]
        var leavingBySection: [Int: [Int]] = [:]     // old section -> items deleted or moved out
        func claimOld(_ path: IndexPath, as role: Role) throws {
            guard path.count == 2 else {
                throw invalid("\(role.rawValue) \(text(path)) does not name a row: it needs a section and an item")
            }
            let section = path[0], item = path[1]
            guard section >= 0, section < oldSectionCount else {
                throw invalid("\(role.rawValue) \(text(path)) is out of range: the old state has \(oldSectionCount) sections")
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
        for path in deletedRows { try claimOld(path, as: .deletedRow) }
        for move in movedRows {
            try claimOld(move.from, as: .moveSource)
            if deletedSections.contains(move.from[0]) {
                throw invalid("move \(text(move.from)) -> \(text(move.to)) leaves deleted section \(move.from[0]): report a delete and an insert")
            }
        }
        for update in updatedRows {
            try claimOld(update.from, as: .updateSource)
            if deletedSections.contains(update.from[0]) {
                throw invalid("updated row \(text(update.from)) -> \(text(update.to)) is in deleted section \(update.from[0])")
            }
        }

        // The new state: first the sections, to count the rows arriving in each.
        var arrivingBySection: [Int: [Int]] = [:]    // new section -> items inserted or moved in
        var movedInCount: [Int: Int] = [:]
        func placeNew(_ path: IndexPath, as role: Role) throws {
            guard path.count == 2 else {
                throw invalid("\(role.rawValue) \(text(path)) does not name a row: it needs a section and an item")
            }
            guard path[0] >= 0, path[0] < newSectionCount else {
                throw invalid("\(role.rawValue) \(text(path)) is out of range: the new state has \(newSectionCount) sections")
            }
            if role != .updateDestination { arrivingBySection[path[0], default: []].append(path[1]) }
            if role == .moveDestination { movedInCount[path[0], default: 0] += 1 }
        }
        for path in insertedRows { try placeNew(path, as: .insertedRow) }
        for move in movedRows {
            try placeNew(move.to, as: .moveDestination)
            if insertedSections.contains(move.to[0]) {
                throw invalid("move \(text(move.from)) -> \(text(move.to)) enters inserted section \(move.to[0]): report a delete and an insert")
            }
        }
        for update in updatedRows {
            try placeNew(update.to, as: .updateDestination)
            if insertedSections.contains(update.to[0]) {
                throw invalid("updated row \(text(update.from)) -> \(text(update.to)) is in inserted section \(update.to[0])")
            }
            let continued = oldToNew[update.from[0]]
            if update.to[0] != continued {
                throw invalid("updated row \(text(update.from)) -> \(text(update.to)) changes section: old section \(update.from[0])"
                    + " continues as new section \(continued); a row that changes section is a move")
            }
        }

        // Row counts: each new section is what stays of its old section plus what arrives.
        var newCounts: [Int] = []
        newCounts.reserveCapacity(newSectionCount)
        for section in 0..<newSectionCount {
            let arriving = arrivingBySection[section]?.count ?? 0
            let oldSection = newToOld[section]
            let leaving = oldSection >= 0 ? leavingBySection[oldSection]?.count ?? 0 : 0
            let (expected, overflow) = ((oldSection >= 0 ? oldCounts[oldSection] : 0) - leaving).addingReportingOverflow(arriving)
            if overflow { throw invalid("the row count of new section \(section) overflows") }
            if let givenCounts, givenCounts[section] != expected {
                let movedIn = movedInCount[section] ?? 0
                let explanation: String
                if oldSection >= 0 {
                    let deleted = deletedRows.lazy.filter { $0[0] == oldSection }.count
                    explanation = "old section \(oldSection) has \(oldCounts[oldSection]) rows - \(deleted) deleted"
                        + " - \(leaving - deleted) moved out + \(arriving - movedIn) inserted + \(movedIn) moved in = \(expected)"
                } else {
                    explanation = "inserted section \(section) has \(arriving - movedIn) inserted + \(movedIn) moved in = \(expected) rows"
                }
                throw invalid("the row count of new section \(section) does not add up: \(explanation),"
                    + " but the new state has \(givenCounts[section])")
            }
            newCounts.append(expected)
        }

        // The new state: every path in range, named once.
        var newRoles: [IndexPath: Role] = [:]
        func claimNew(_ path: IndexPath, as role: Role) throws {
            let section = path[0], item = path[1]
            guard item >= 0, item < newCounts[section] else {
                throw invalid("\(role.rawValue) \(text(path)) is out of range: new section \(section) has \(newCounts[section]) rows")
            }
            if let previous = newRoles.updateValue(role, forKey: path) {
                throw invalid("row \(text(path)) is named twice in the new state: as \(previous.rawValue) and as \(role.rawValue)")
            }
        }
        for path in insertedRows { try claimNew(path, as: .insertedRow) }
        for move in movedRows { try claimNew(move.to, as: .moveDestination) }
        for update in updatedRows { try claimNew(update.to, as: .updateDestination) }

        // Updates: the new path is where the batch puts the row.
        if !updatedRows.isEmpty {
            for key in Array(leavingBySection.keys) { leavingBySection[key]?.sort() }
            for key in Array(arrivingBySection.keys) { arrivingBySection[key]?.sort() }
            for update in updatedRows {
                let leaving = leavingBySection[update.from[0]] ?? []
                let rank = update.from[1] - Self.countLess(than: update.from[1], in: leaving)
                // The rank-th row that is not an arrival: arrival slot `a[i]` comes before it
                // exactly when the `a[i] - i` rows before that slot number at most `rank`.
                let arriving = arrivingBySection[update.to[0]] ?? []
                var low = 0, high = arriving.count
                while low < high {
                    let middle = (low + high) / 2
                    if arriving[middle] - middle <= rank { low = middle + 1 } else { high = middle }
                }
                let landing = rank &+ low     // wraps (and then fails the check) only for absurd counts
                if landing != update.to[1] {
                    throw invalid("updated row \(text(update.from)) -> \(text(update.to)) does not follow its row:"
                        + " the batch puts that row at \(text(IndexPath(item: landing, section: update.to[0])))")
                }
            }
        }
        return newCounts
    }

    /// The number of elements of the ascending array `sorted` that are less than `value`.
    static func countLess(than value: Int, in sorted: [Int]) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension ChangeSet: Equatable {
    /// Whether two change sets report the same changes, in the same order.
    public static func == (lhs: ChangeSet, rhs: ChangeSet) -> Bool {
        lhs.deletedSections == rhs.deletedSections && lhs.insertedSections == rhs.insertedSections
            && lhs.deletedRows == rhs.deletedRows && lhs.insertedRows == rhs.insertedRows
            && lhs.movedRows.elementsEqual(rhs.movedRows) { $0.from == $1.from && $0.to == $1.to }
            && lhs.updatedRows.elementsEqual(rhs.updatedRows) { $0.from == $1.from && $0.to == $1.to }
    }
}
