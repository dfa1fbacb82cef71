import Foundation

/// How much persistent history a store keeps: every save removes the transaction records
/// older than ``maximumAge`` and all but the newest ``maximumTransactions``.
///
/// History is what lets another process merge a save exactly (and what
/// `PersistentContainer.history(after:)` returns). A process that has not merged for longer
/// than the history reaches still catches up, by re-reading every object it holds.
///
/// ```swift
/// var description = StoreDescription.sqlite(url)
/// description.historyRetention = HistoryRetention(maximumAge: 30 * 86_400, maximumTransactions: nil)
/// ```
public struct HistoryRetention: Sendable, Hashable {
    /// Records older than this many seconds are removed; nil keeps records of any age.
    public var maximumAge: TimeInterval?
    /// At most this many of the newest records are kept; nil keeps any number.
    public var maximumTransactions: Int?

    /// Keeps records no older than `maximumAge` seconds, and no more than `maximumTransactions`.
    public init(maximumAge: TimeInterval?, maximumTransactions: Int?) {
        self.maximumAge = maximumAge
        self.maximumTransactions = maximumTransactions
    }

    /// Seven days, and at most 10,000 transactions: the default.
    public static let `default` = HistoryRetention(maximumAge: 7 * 86_400, maximumTransactions: 10_000)

    /// Keeps every record until `purgeHistory(before:)` removes it.
    public static let unlimited = HistoryRetention(maximumAge: nil, maximumTransactions: nil)
}
