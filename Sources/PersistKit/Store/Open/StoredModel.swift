/// The model a store says wrote it, read from its metadata.
struct StoredModel: Sendable {
    /// The model version (`modelVersion`); 1 for a store written before PersistKit recorded
    /// versions (every model was version 1 then).
    let version: Int
    /// Whether the store records its version (stores written before versions existed do not).
    let isVersionRecorded: Bool
    /// ``ManagedObjectModel/versionHash`` of the model that wrote it.
    let versionHash: String
}
