/// The folding a text comparison applies: Core Data's `[c]` and `[d]`.
///
/// PersistKit's public `StringComparisonOptions` converts to this; the text layer knows
/// nothing above it.
package struct TextOptions: OptionSet, Sendable, Hashable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    /// `[c]`: fold case.
    package static let caseInsensitive = TextOptions(rawValue: 1)
    /// `[d]`: fold diacritics.
    package static let diacriticInsensitive = TextOptions(rawValue: 2)
}
