/// How far a context has merged the store's change log, and the merges and resets it has been
/// through: what tells an object read before a merge from one read after it, and a batched
/// fetch's held batch from one a reset detached.
///
/// Invariants:
/// - `sequence` is the last change-log entry the context has merged (or skipped, at a reset):
///   the next merge asks the store for the entries after it, and it never goes back.
/// - `mergeCount` is one more than the merges begun; an object read from a row records it
///   (`readAtMerge`), so the next merge knows which objects were read since the last one.
/// - `resetCount` is the number of resets: a batched fetch holding batches from an older count
///   reads them again.
struct MergeCursor {
    private(set) var sequence: Int
    private(set) var mergeCount = 1
    private(set) var resetCount = 0

    /// A cursor that starts after the log entry `sequence` (the store's latest).
    init(after sequence: Int) {
        self.sequence = sequence
    }

    /// Begins a merge of the entries through `latest`: returns the count objects read since
    /// the previous merge recorded.
    @inline(__always)
    mutating func beginMerge(through latest: Int) -> Int {
        sequence = latest
        let previous = mergeCount
        mergeCount &+= 1
        return previous
    }

    /// Counts a reset.
    mutating func noteReset() {
        resetCount &+= 1
    }

    /// Skips the entries through `latest` unmerged (a reset forgot every object they name).
    mutating func skip(through latest: Int) {
        sequence = latest
    }
}
