/// What an import did.
public struct ImportResult: Sendable, Hashable {
    /// How many tasks were added.
    public var imported: Int
    /// How many tasks were left out as duplicates (see ``DuplicatePolicy``).
    public var skipped: Int

    /// A result with these counts.
    public init(imported: Int, skipped: Int) {
        self.imported = imported
        self.skipped = skipped
    }
}
