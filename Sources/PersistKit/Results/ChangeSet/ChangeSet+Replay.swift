import Foundation

extension ChangeSet {
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
        return try ChangeSetReplay(change: self, old: old).newSections(counts: newCounts, newElement: newElement)
    }
}
