/// What an import does with a task the store already has.
///
/// A task in a document is a *duplicate* when the store, before the import, holds a task with
/// the same name and the same creation time (to the millisecond): the same task, exported
/// earlier, whatever was changed since. Tasks within one document are never duplicates of each
/// other: a document imported into an empty store gives back every task it holds.
public enum DuplicatePolicy: String, Sendable, Hashable, CaseIterable {
    /// Leave out duplicates (the default): importing one export twice adds its tasks once.
    case skip
    /// Import every task, duplicates too.
    case keep
}
