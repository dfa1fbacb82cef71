import Foundation

/// What opening a container migrated: ``PersistentContainer/migrationReport``, nil when the
/// store needed no migration.
///
/// ```swift
/// if let report = container.migrationReport {
///     print("Upgraded to version \(report.toVersion) (\(report.objectCounts["Task", default: 0]) tasks)")
/// }
/// ```
public struct MigrationReport: Sendable, Equatable {
    /// The version the store had.
    public let fromVersion: Int
    /// The version it has now (the model's).
    public let toVersion: Int
    /// The number of objects of each entity of the new model, after the migration.
    public let objectCounts: [String: Int]
    /// How long the migration took, in seconds.
    public let duration: TimeInterval

    /// Creates a report (PersistKit makes them; tests may too).
    public init(fromVersion: Int, toVersion: Int, objectCounts: [String: Int], duration: TimeInterval) {
        self.fromVersion = fromVersion
        self.toVersion = toVersion
        self.objectCounts = objectCounts
        self.duration = duration
    }

    /// The number of objects of every entity together.
    public var objectCount: Int { objectCounts.values.reduce(0, +) }
}
