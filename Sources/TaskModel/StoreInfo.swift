import PersistKit

/// The task store's own record: one row, written when a ``TaskStore`` first opens a store; it
/// also keeps the store's daily limits.
///
/// Its presence is how a store is known not to be new (PersistKit keeps no user metadata), so
/// sample data is staged once, in a new store only: a store the user emptied stays empty.
/// The `key` is unique, so two processes creating the same store at once cannot both stage.
final class StoreInfo: ManagedObject {
    /// Always "tasks": the uniqueness constraint on it keeps the record single.
    @Attribute var key = StoreInfo.onlyKey
    /// Whether sample tasks were added when the store was created.
    @Attribute var sampleDataStaged = false
    /// How many open high-priority tasks a day's plan may hold (``DayLimits``; version 3).
    @Attribute var highPriorityLimit = 1
    /// How many open normal-priority tasks a day's plan may hold.
    @Attribute var normalPriorityLimit = 3
    /// How many open low-priority tasks a day's plan may hold.
    @Attribute var lowPriorityLimit = 5

    /// The limits, as a value.
    var limits: DayLimits {
        get { DayLimits(high: highPriorityLimit, normal: normalPriorityLimit, low: lowPriorityLimit) }
        set {
            highPriorityLimit = newValue.high
            normalPriorityLimit = newValue.normal
            lowPriorityLimit = newValue.low
        }
    }

    static let onlyKey = "tasks"

    override class var uniquenessConstraints: [[String]] { [["key"]] }
}
