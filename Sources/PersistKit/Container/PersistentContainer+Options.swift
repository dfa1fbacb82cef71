extension PersistentContainer {
    /// How a container opens its store, beyond where the store is.
    ///
    /// ```swift
    /// let options = PersistentContainer.Options(migrationPlan: plan, migrationProgress: { progress in
    ///     print("\(progress.step): \(progress.rowsDone) of \(progress.totalRows)")
    /// })
    /// let container = try PersistentContainer(model: model, store: .sqlite(url), options: options)
    /// ```
    public struct Options: Sendable {
        /// The model's older versions and the stages between them: a store written by an older
        /// version is migrated when the container opens it. Without a plan, such a store is
        /// refused (`.incompatibleModel`) and left untouched.
        public var migrationPlan: MigrationPlan?
        /// Called as a migration goes (each stage, and every few thousand rows copied), on the
        /// thread opening the container.
        public var migrationProgress: (@Sendable (MigrationProgress) -> Void)?

        /// Options; the defaults are no migration plan and no progress reports.
        public init(migrationPlan: MigrationPlan? = nil, migrationProgress: (@Sendable (MigrationProgress) -> Void)? = nil) {
            self.migrationPlan = migrationPlan
            self.migrationProgress = migrationProgress
        }
    }
}
