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
    ///
    /// ```swift
    /// let token = results.observe { change in
    ///     assert(!change.isEmpty)   // a controller reports only change sets that change something
    /// }
    /// ```
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
