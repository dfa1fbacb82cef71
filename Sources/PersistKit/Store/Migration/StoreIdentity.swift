/// Which store a migration works on: what its contexts' object IDs and messages name.
struct StoreIdentity: Sendable {
    let identifier: String
    let description: StoreDescription
    /// The path as the caller gave it, for messages.
    let path: String
    /// The folder of the values kept outside the database, which a migration reads and writes
    /// (see `ExternalDataFolder`).
    let externalData: ExternalDataFolder
    /// The container's logging settings, for the migration's contexts.
    var logSettings = LogSettings()
}
