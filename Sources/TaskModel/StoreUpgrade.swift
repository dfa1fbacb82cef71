/// What opening a task store of an older model version did: it was migrated.
///
/// ```swift
/// if let upgrade = store.upgrade {
///     print("Upgraded to version \(upgrade.toVersion) (\(upgrade.taskCount) tasks)")
/// }
/// ```
public struct StoreUpgrade: Sendable, Hashable {
    /// The model version the store had.
    public var fromVersion: Int
    /// The model version it has now.
    public var toVersion: Int
    /// How many tasks it holds.
    public var taskCount: Int

    /// An upgrade with these values.
    public init(fromVersion: Int, toVersion: Int, taskCount: Int) {
        self.fromVersion = fromVersion
        self.toVersion = toVersion
        self.taskCount = taskCount
    }
}
