/// When a results controller refetches instead of placing each changed object again.
///
/// Placing k changed objects costs about O(k log n) but with a large constant per object
/// (lookups, binary searches, moves in the row array); a refetch reads all n rows in one
/// sequential SQL pass and diffs them in O(n). Measured on 50,000 rows, the refetch is cheaper
/// once about a quarter of the rows changed.
enum ResultsUpdatePolicy {
    /// Below this many changed objects the controller always places them in place.
    static let minimumRefetchChanges = 1_000

    /// Whether `changed` objects of the controller's entity among `rows` rows are better
    /// handled by a refetch.
    static func prefersRefetch(changed: Int, rows: Int) -> Bool {
        changed >= minimumRefetchChanges && changed * 4 >= rows
    }
}
