/// Sorted primary keys written as runs: `[1, -3, 9]` is 1, 2, 3, 4 and 9.
enum KeyRuns {
    /// The largest run a record may describe: a damaged record must not ask for more memory
    /// than a save could have produced.
    static let maximumRun: Int64 = 1 << 31

    static func compress(_ keys: [Int64]) -> [Int64] {
        var result: [Int64] = []
        result.reserveCapacity(min(keys.count, 64))
        forEachValue(of: keys) { result.append($0) }
        return result
    }

    /// Calls `body` with each value `compress` would return, in order, without making the
    /// array (a history record's JSON is written straight from the keys).
    @inline(__always)
    static func forEachValue(of keys: [Int64], _ body: (Int64) -> Void) {
        var index = keys.startIndex
        while index < keys.endIndex {
            var end = index
            while end + 1 < keys.endIndex && keys[end + 1] == keys[end] + 1 { end += 1 }
            body(keys[index])
            if end > index { body(-Int64(end - index)) }
            index = end + 1
        }
    }

    /// The keys, or nil for runs no save writes (a run first, a run after a run, a key below 1).
    static func expand(_ runs: [Int64]) -> [Int64]? {
        var keys: [Int64] = []
        keys.reserveCapacity(runs.count)
        var previousWasKey = false
        for value in runs {
            if value > 0 {
                keys.append(value)
                previousWasKey = true
                continue
            }
            guard previousWasKey, value < 0, value >= -maximumRun, let last = keys.last,
                  case (let end, false) = last.addingReportingOverflow(-value) else { return nil }
            keys.append(contentsOf: (last + 1)...end)
            previousWasKey = false
        }
        return keys
    }
}
