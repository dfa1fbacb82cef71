import CSQLiteBench
import Foundation

/// What one fetched object costs in memory, measured by the `fetch` workload: the allocator's
/// bytes in use once the results are fetched (and still held) less its bytes before, over the
/// rows. Everything the fetch leaves behind counts: objects, their values, the identity map,
/// the results array (raw SQLite and GRDB: the array of structs and their strings).
enum FetchMemory {
    /// Bytes per object of each measured round, by variant. Rounds run one at a time on the
    /// main thread: nothing else touches it.
    nonisolated(unsafe) static var samples: [Variant: [Double]] = [:]

    /// The bytes malloc has handed out and not had back (small blocks and mapped ones).
    static func allocatedBytes() -> Int {
        Int(bench_allocated_bytes())
    }

    /// Records a round's bytes per object (not the warm-up's, round 0).
    static func record(_ variant: Variant, round: Int, before: Int, objects: Int) {
        guard round > 0, objects > 0 else { return }
        samples[variant, default: []].append(Double(allocatedBytes() - before) / Double(objects))
    }

    /// The median bytes per object of `variant`'s rounds, if it was measured.
    static func bytesPerObject(_ variant: Variant) -> Double? {
        guard let values = samples[variant], !values.isEmpty else { return nil }
        return values.sorted()[values.count / 2]
    }
}
