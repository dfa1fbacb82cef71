import Foundation

extension ChangeSet {
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

    /// Checks the change set against the old section counts and, when given, the new ones.
    ///
    /// - Returns: The new section counts: the given ones, or those the change set implies.
    func checkedNewSectionCounts(old oldCounts: [Int], new givenCounts: [Int]?) throws -> [Int] {
        var validator = ChangeSetValidator(change: self, oldCounts: oldCounts, givenCounts: givenCounts)
        return try validator.newSectionCounts()
    }
}
