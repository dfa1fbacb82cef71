import PersistKitText

/// Options for string comparisons in predicates: Core Data's `[c]`, `[d]` and `[cd]`.
///
/// Case folding is full Unicode case folding: "ÉCLAIR" matches "éclair" under `[cd]`, and
/// "straße" matches "STRASSE" under `[c]` (ß folds to "ss", as in Unicode's CaseFolding.txt).
/// Diacritic folding removes combining marks after canonical decomposition: "é" matches "e".
///
/// ```swift
/// let request = FetchRequest<TaskItem>(
///     predicate: .contains(\.name, "eclair", options: [.caseInsensitive, .diacriticInsensitive]))
/// // the same as: FetchPredicate(format: "name CONTAINS[cd] %@", "eclair")
/// ```
public struct StringComparisonOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `[c]`: compare without regard to case.
    public static let caseInsensitive = StringComparisonOptions(rawValue: 1)
    /// `[d]`: compare without regard to diacritics.
    public static let diacriticInsensitive = StringComparisonOptions(rawValue: 2)
}

extension StringComparisonOptions {
    /// The same folding, as the text layer takes it.
    var textOptions: TextOptions { TextOptions(rawValue: rawValue & 3) }
}
