/// A place in a store's persistent history: the transaction it was taken from. Ask for what
/// changed after it with `PersistentContainer.history(after:)`.
///
/// Tokens are `Codable`: keep the last one you processed (in a file, in `UserDefaults`) and
/// continue from it on the next launch. Tokens of one store are ordered as its transactions.
///
/// ```swift
/// let transactions = try container.history(after: lastToken)
/// lastToken = transactions.last?.token ?? lastToken
/// try JSONEncoder().encode(lastToken)
/// ```
public struct HistoryToken: Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The UUID of the store the token belongs to.
    public let storeIdentifier: String
    /// The transaction's number in the store: increases by one per saved transaction.
    public let transactionNumber: Int64

    package init(storeIdentifier: String, transactionNumber: Int64) {
        self.storeIdentifier = storeIdentifier
        self.transactionNumber = transactionNumber
    }

    /// Earlier transactions first (tokens of different stores are ordered by store).
    public static func < (lhs: HistoryToken, rhs: HistoryToken) -> Bool {
        (lhs.storeIdentifier, lhs.transactionNumber) < (rhs.storeIdentifier, rhs.transactionNumber)
    }

    /// `<store>#<number>`.
    public var description: String { "\(storeIdentifier)#\(transactionNumber)" }
}
