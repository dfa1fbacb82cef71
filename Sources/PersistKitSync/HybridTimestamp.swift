import Foundation

/// A hybrid logical clock reading (Kulkarni et al.): wall-clock milliseconds, a counter for
/// readings within the same millisecond (or while the wall clock lags behind a clock this
/// store has seen), and the store's client ID, which breaks ties. Every change a store syncs
/// carries one per key; the newest wins.
///
/// A store's clock never goes back and never falls behind a reading it received, so a change
/// made after seeing another one is newer than it, whatever the two machines' wall clocks
/// say: a client whose clock is an hour fast wins only over changes it had not seen.
///
/// Its text form, `0000018c2b5e3f10:0003:<client>`, sorts as the readings do (hexadecimal
/// of fixed width), so the server can compare readings as text too.
struct HybridTimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds since 1970.
    var milliseconds: Int64
    /// Readings within one millisecond.
    var counter: Int
    /// The client ID of the store that made the reading.
    var client: String

    /// The reading before every other (no change yet).
    static let zero = HybridTimestamp(milliseconds: 0, counter: 0, client: "")

    static func < (lhs: HybridTimestamp, rhs: HybridTimestamp) -> Bool {
        (lhs.milliseconds, lhs.counter, lhs.client) < (rhs.milliseconds, rhs.counter, rhs.client)
    }

    var description: String {
        let time = String(UInt64(max(milliseconds, 0)), radix: 16)
        let count = String(counter, radix: 16)
        return String(repeating: "0", count: max(0, 16 - time.count)) + time + ":"
            + String(repeating: "0", count: max(0, 4 - count.count)) + count + ":" + client
    }

    /// Parses the text form; nil for anything else.
    init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 16, parts[1].count >= 4,
              let time = UInt64(parts[0], radix: 16), time <= UInt64(Int64.max),
              let count = Int(parts[1], radix: 16) else { return nil }
        self.init(milliseconds: Int64(time), counter: count, client: String(parts[2]))
    }

    init(milliseconds: Int64, counter: Int, client: String) {
        self.milliseconds = milliseconds
        self.counter = counter
        self.client = client
    }
}

/// A store's hybrid logical clock: the last reading it gave or received.
struct HybridClock: Sendable {
    /// The newest reading made or seen.
    private(set) var last: HybridTimestamp
    let client: String

    init(last: HybridTimestamp, client: String) {
        self.last = last
        self.client = client
    }

    /// A reading for a change made at `date` (its wall-clock time): after every reading made
    /// or received so far.
    mutating func tick(at date: Date) -> HybridTimestamp {
        let now = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        if now > last.milliseconds {
            last = HybridTimestamp(milliseconds: now, counter: 0, client: client)
        } else if last.counter < 0xFFFF {
            last = HybridTimestamp(milliseconds: last.milliseconds, counter: last.counter + 1, client: client)
        } else {
            // The counter's four digits are used up: borrow the next millisecond.
            last = HybridTimestamp(milliseconds: last.milliseconds + 1, counter: 0, client: client)
        }
        return last
    }

    /// Takes in a reading from another store: readings made from now on come after it.
    mutating func receive(_ remote: HybridTimestamp) {
        if remote.milliseconds > last.milliseconds || (remote.milliseconds == last.milliseconds && remote.counter > last.counter) {
            last = HybridTimestamp(milliseconds: remote.milliseconds, counter: remote.counter, client: client)
        }
    }
}
