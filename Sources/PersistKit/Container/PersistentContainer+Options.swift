import Logging

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

        /// Where the container logs (swift-log): every statement at `.trace`, saves, fetches,
        /// merges and migrations at `.debug`, slow statements at `.notice`, conflicts and lock
        /// waits at `.warning` (see <doc:Logging>). Its level is read once, here: give the
        /// container a logger of another level to change it. Nil (the default) logs nothing,
        /// and costs nothing.
        ///
        /// ```swift
        /// var logger = Logger(label: "tasks.store")
        /// logger.logLevel = .debug
        /// let container = try PersistentContainer(model: model, store: .sqlite(url), options: .init(logger: logger))
        /// ```
        public var logger: Logger?
        /// A statement that runs at least this long is logged at `.notice`, with SQLite's query
        /// plan (nil, the default, watches for none: as PostgreSQL's `log_min_duration_statement`).
        /// Watching times every statement, a cost of its own.
        public var slowStatementThreshold: Duration?
        /// Whether logged statements show their bound values (off by default: values are the
        /// application's data, and logs travel). `PERSISTKIT_SQL_DEBUG=3` turns it on too.
        public var logsBoundValues = false

        /// Options; the defaults are no migration plan, no progress reports and no logger.
        public init(migrationPlan: MigrationPlan? = nil, migrationProgress: (@Sendable (MigrationProgress) -> Void)? = nil,
                    logger: Logger? = nil, slowStatementThreshold: Duration? = nil) {
            self.migrationPlan = migrationPlan
            self.migrationProgress = migrationProgress
            self.logger = logger
            self.slowStatementThreshold = slowStatementThreshold
        }

        /// The logging settings the container's store and contexts share.
        var logSettings: LogSettings {
            LogSettings(logger: logger, slowStatementThreshold: slowStatementThreshold, logsValues: logsBoundValues)
        }
    }
}
