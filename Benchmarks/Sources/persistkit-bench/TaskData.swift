import Foundation

/// One generated task: the same values go into every variant's store.
struct TaskData: Sendable {
    var name: String
    var notes: String?
    /// Seconds since 1970 (what PersistKit stores for a `Date`).
    var due: Double?
    var isComplete: Bool
}

/// SplitMix64: a small, fast, seedable generator, so every run makes the same data.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum DataSet {
    /// Words for names and notes. A few contain "abc" in some case, so the substring predicate
    /// `name CONTAINS[c] "abc"` matches roughly one name in ten.
    static let words = [
        "buy", "milk", "call", "mom", "fix", "bike", "write", "report", "review", "pull",
        "request", "plan", "trip", "book", "flight", "pay", "rent", "clean", "garage", "water",
        "plants", "email", "team", "update", "budget", "read", "paper", "walk", "dog", "order",
        "groceries", "renew", "passport", "backup", "laptop", "prepare", "slides", "meet", "Bob",
        "fabcon", "ABC", "Abcde", "cabcab",
    ]

    /// The base of generated due dates (2023-11-14) and their spread (about six years).
    static let dueBase: Double = 1_700_000_000
    static let dueSpread: Double = 200_000_000

    /// The median due date of the generated data, for the count predicate.
    static let countDeadline: Double = dueBase + dueSpread / 2

    /// `count` tasks, the same for a given count on every run.
    static func tasks(count: Int, seed: UInt64 = 42) -> [TaskData] {
        var rng = SplitMix64(seed: seed)
        var result: [TaskData] = []
        result.reserveCapacity(count)
        for i in 0..<count {
            var name = ""
            let wordCount = Int.random(in: 2...4, using: &rng)
            for w in 0..<wordCount {
                if w > 0 { name += " " }
                name += words[Int.random(in: 0..<words.count, using: &rng)]
            }
            name += " #\(i)"
            var notes: String?
            if Bool.random(using: &rng) {
                var text = ""
                for w in 0..<Int.random(in: 5...12, using: &rng) {
                    if w > 0 { text += " " }
                    text += words[Int.random(in: 0..<words.count, using: &rng)]
                }
                notes = text
            }
            // 80% have a due date, rounded to the millisecond.
            let due: Double? = Int.random(in: 0..<10, using: &rng) < 8
                ? (dueBase + Double(Int.random(in: 0..<Int(dueSpread * 1000), using: &rng)) / 1000)
                : nil
            let isComplete = Int.random(in: 0..<10, using: &rng) < 3
            result.append(TaskData(name: name, notes: notes, due: due, isComplete: isComplete))
        }
        return result
    }
}

/// An order-sensitive digest of materialized rows, so the variants can be checked against each
/// other (same rows, same order) and the reads cannot be optimized away.
struct Digest: Equatable {
    var count = 0
    var value: UInt64 = 0xcbf2_9ce4_8422_2325

    @inline(__always)
    mutating func add(name: String, notes: String?, due: Double?, isComplete: Bool) {
        count += 1
        var h = value
        h = (h ^ UInt64(name.utf8.count)) &* 0x100_0000_01b3
        h = (h ^ UInt64(notes?.utf8.count ?? 0xFFFF)) &* 0x100_0000_01b3
        h = (h ^ (due.map { UInt64(bitPattern: Int64($0 * 1000)) } ?? 0xFFFF_FFFF)) &* 0x100_0000_01b3
        h = (h ^ (isComplete ? 1 : 2)) &* 0x100_0000_01b3
        value = h
    }
}
