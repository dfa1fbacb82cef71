/// How far a migration has got: reported to
/// ``PersistentContainer/Options/migrationProgress`` while a container opens a store of an
/// older model version.
///
/// ```swift
/// let options = PersistentContainer.Options(migrationPlan: plan, migrationProgress: { progress in
///     print("version \(progress.fromVersion) → \(progress.toVersion): \(progress.step) \(progress.rowsDone)/\(progress.totalRows)")
/// })
/// ```
///
/// Reports come on the thread opening the container, from inside the migration's transaction:
/// show them, but do not touch the store from the callback.
public struct MigrationProgress: Sendable, Equatable {
    /// The version the running stage migrates from.
    public let fromVersion: Int
    /// The version the running stage migrates to.
    public let toVersion: Int
    /// The running stage, counted from 1.
    public let stage: Int
    /// How many stages the migration has.
    public let stageCount: Int
    /// What the stage is doing: `"willMigrate"`, `"copying Task"`, `"didMigrate"`, `"done"`...
    public let step: String
    /// Rows the stage has copied so far.
    public let rowsDone: Int
    /// Rows the stage copies in all (0 when it only alters tables in place, which takes no
    /// time per row).
    public let totalRows: Int

    /// Creates a report (PersistKit makes them; tests may too).
    public init(fromVersion: Int, toVersion: Int, stage: Int, stageCount: Int, step: String, rowsDone: Int, totalRows: Int) {
        self.fromVersion = fromVersion
        self.toVersion = toVersion
        self.stage = stage
        self.stageCount = stageCount
        self.step = step
        self.rowsDone = rowsDone
        self.totalRows = totalRows
    }
}
