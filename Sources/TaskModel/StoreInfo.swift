import PersistKit

/// The task store's own record: one row, written when a ``TaskStore`` first opens a store.
///
/// Its presence is how a store is known not to be new (PersistKit keeps no user metadata), so
/// sample data is staged once, in a new store only: a store the user emptied stays empty.
/// The `key` is unique, so two processes creating the same store at once cannot both stage.
final class StoreInfo: ManagedObject {
    /// Always "tasks": the uniqueness constraint on it keeps the record single.
    @Attribute var key = StoreInfo.onlyKey
    /// Whether sample tasks were added when the store was created.
    @Attribute var sampleDataStaged = false

    static let onlyKey = "tasks"

    override class var uniquenessConstraints: [[String]] { [["key"]] }
}
