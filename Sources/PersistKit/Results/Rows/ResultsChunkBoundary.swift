/// The last row of one chunk of a `ResultsRowStore`, with its first two sort keys copied beside
/// it: the store keeps one array of these, so the search for a row's chunk reads one block of
/// memory instead of a scattered row object per step. The row is read only when the probe's
/// first two keys equal these (or the sorts have more than two keys to compare).
struct ResultsChunkBoundary {
    let k0: SQLValue
    let k1: SQLValue
    let last: ResultsEntry

    init(_ last: ResultsEntry) {
        k0 = last.key(0)
        k1 = last.key(1)
        self.last = last
    }
}
