import PersistKitText
import Foundation

/// The regular expression of a `MATCHES` predicate, compiled once, used alike by the SQL
/// function `pk_matches_N` and by the in-memory evaluator.
///
/// Semantics, as NSPredicate's `MATCHES`: ICU regular expression syntax (Foundation's
/// `NSRegularExpression`), matched against the **whole** value (the pattern is anchored with
/// `\A(?:...)\z`), by Unicode scalars. `[c]` matches case-insensitively (ICU's case folding);
/// `[d]` removes diacritics (canonical decomposition, then nonspacing marks dropped, as
/// ``TextFolding`` does) from the value and from the pattern before matching.
///
/// ```swift
/// let regex = try PredicateRegex(pattern: "b.*k", options: .caseInsensitive)
/// regex.matches("Book") // true
/// regex.matches("a book") // false: the whole value must match
/// ```
final class PredicateRegex: @unchecked Sendable {
    // @unchecked Sendable: immutable after init; NSRegularExpression is documented thread-safe.

    /// The pattern as written.
    let pattern: String
    let options: StringComparisonOptions
    private let expression: NSRegularExpression

    /// Compiles `pattern`.
    ///
    /// - Throws: ``PersistError`` `.invalidPredicate` naming the pattern when it is not a valid
    ///   regular expression.
    init(pattern: String, options: StringComparisonOptions) throws(PersistError) {
        self.pattern = pattern
        self.options = options
        let prepared = PredicateRegex.prepare(pattern, options)
        let flags: NSRegularExpression.Options = options.contains(.caseInsensitive) ? [.caseInsensitive] : []
        do {
            // Compiled alone first, so that a pattern such as "a)|(b" cannot become valid
            // only once wrapped in the anchoring group (Foundation refuses an empty pattern
            // alone; anchored, it matches the empty string).
            if !prepared.isEmpty { _ = try NSRegularExpression(pattern: prepared, options: flags) }
            expression = try NSRegularExpression(pattern: "\\A(?:" + prepared + ")\\z", options: flags)
        } catch {
            throw PersistError(.invalidPredicate,
                "Invalid regular expression \(PredicateRegex.quote(pattern)) for MATCHES (ICU syntax)")
        }
    }

    /// Whether the whole of `value` matches.
    func matches(_ value: String) -> Bool {
        let prepared = PredicateRegex.prepare(value, options)
        let length = prepared.utf16.count
        return expression.firstMatch(in: prepared, options: [], range: NSRange(location: 0, length: length)) != nil
    }

    /// Whether the whole of the UTF-8 `value` matches (invalid UTF-8 repaired with U+FFFD).
    func matches(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        matches(String(decoding: value, as: UTF8.self))
    }

    /// `[d]` folds diacritics away; `[c]` alone leaves the text as it is (the regex flag does it).
    private static func prepare(_ text: String, _ options: StringComparisonOptions) -> String {
        options.contains(.diacriticInsensitive) ? TextFolding.fold(text, .diacriticInsensitive) : text
    }

    /// The pattern quoted for messages, shortened when long.
    static func quote(_ pattern: String) -> String {
        let shown = pattern.count > 80 ? String(pattern.prefix(77)) + "..." : pattern
        return "'" + shown + "'"
    }
}
