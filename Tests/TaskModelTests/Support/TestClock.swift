import Foundation

/// A clock a test sets: a store made with `{ clock.now }` reads this time.
final class TestClock {
    var now: Date

    init(_ now: Date) {
        self.now = now
    }

    /// Moves the clock on.
    func advance(by interval: TimeInterval) {
        now = now.addingTimeInterval(interval)
    }
}
