/// Order keys of synced ordered lists: text that sorts as the list does (fractional indexing).
/// A move or an insert gives only the moved or inserted object a new key, between its
/// neighbours' keys, so that concurrent moves of different objects both survive; two objects
/// given the same key on two stores are ordered by their global IDs.
enum OrderKey {
    /// The digits, in ascending order (ASCII, so text comparison orders keys).
    static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    private static let values: [Character: Int] = Dictionary(uniqueKeysWithValues: digits.enumerated().map { ($1, $0) })

    /// A key after `lower` (nil: the start) and before `upper` (nil: the end); `lower` < `upper`.
    static func between(_ lower: String?, _ upper: String?) -> String {
        let low = Array(lower ?? ""), high = Array(upper ?? "")
        // Once the key's digits fall below the upper key's, later digits are free.
        var upperIsOpen = upper == nil
        var result: [Character] = []
        var index = 0
        while true {
            let a = index < low.count ? (values[low[index]] ?? 0) : 0
            let b = upperIsOpen ? digits.count : index < high.count ? (values[high[index]] ?? digits.count) : 0
            if b - a > 1 {
                result.append(digits[(a + b) / 2])
                return String(result)
            }
            if b < a || (b == a && index >= high.count) {
                // Bounds out of order (not keys this code made): any key after the lower one.
                return String(low) + String(digits[digits.count / 2])
            }
            result.append(digits[a])
            if b > a { upperIsOpen = true }
            index += 1
        }
    }

    /// Keys for a list whose elements have the keys `existing` (nil: none yet), keeping as many
    /// as possible: the elements of a longest run of increasing keys keep theirs, the others
    /// get new keys between their neighbours. Returns the new keys by position.
    static func rekey(_ existing: [String?]) -> [Int: String] {
        let kept = Set(longestIncreasingRun(existing))
        var changed: [Int: String] = [:]
        var previous: String?
        for index in existing.indices {
            if kept.contains(index), let key = existing[index] {
                previous = key
                continue
            }
            // The next key that stays, as the upper bound.
            let next = existing.indices[(index + 1)...].first { kept.contains($0) }.flatMap { existing[$0] }
            let key = between(previous, next)
            changed[index] = key
            previous = key
        }
        return changed
    }

    /// Positions of a longest strictly increasing run of the non-nil keys (patience sorting).
    private static func longestIncreasingRun(_ keys: [String?]) -> [Int] {
        var tails: [Int] = []          // position of the smallest tail of each run length
        var parent = [Int](repeating: -1, count: keys.count)
        for (index, key) in keys.enumerated() {
            guard let key else { continue }
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if let tail = keys[tails[middle]], tail < key { low = middle + 1 } else { high = middle }
            }
            if low > 0 { parent[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: [Int] = []
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            run.append(cursor)
            cursor = parent[cursor]
        }
        return run.reversed()
    }
}
