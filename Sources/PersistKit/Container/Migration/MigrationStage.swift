/// One step of a ``MigrationPlan``: how a store moves from one model version to the next.
///
/// ```swift
/// let plan = try MigrationPlan(documents: [1: version1, 2: version2], stages: [
///     .custom(from: 2, to: 3, willMigrate: { old in
///         // the old model (version 2): remove duplicates before names become unique
///     }, didMigrate: { new in
///         // the new model (version 3): fill in what the new attributes should hold
///     }),
/// ])
/// ```
///
/// Between versions with no stage in the plan, the stage is inferred (`.inferred`).
public enum MigrationStage: Sendable {
    /// The schema change inferred by comparing the two versions' models (a lightweight
    /// migration): entities, attributes and relationships added, removed or renamed
    /// (`originalName:`), attributes made optional or required with a default, uniqueness
    /// added or removed. See <doc:MigratingAModel> for what can be inferred.
    case inferred(from: Int, to: Int)

    /// The inferred schema change with code around it, as SwiftData's
    /// `MigrationStage.custom`: `willMigrate` runs with a context of the old model before the
    /// schema changes, `didMigrate` with a context of the new model after. Changes a closure
    /// leaves unsaved are saved when it returns. Everything, the code's saves included, is
    /// part of the migration's one transaction: a closure that throws undoes the whole
    /// migration, and the container's initializer throws its error.
    case custom(from: Int, to: Int,
                willMigrate: (@Sendable (ManagedObjectContext) throws -> Void)? = nil,
                didMigrate: (@Sendable (ManagedObjectContext) throws -> Void)? = nil)

    /// The version the stage starts from.
    public var fromVersion: Int {
        switch self {
        case .inferred(let from, _), .custom(let from, _, _, _): return from
        }
    }

    /// The version the stage ends at.
    public var toVersion: Int {
        switch self {
        case .inferred(_, let to), .custom(_, let to, _, _): return to
        }
    }
}
