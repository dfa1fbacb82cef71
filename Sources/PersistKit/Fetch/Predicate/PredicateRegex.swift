import PersistKitText
import Foundation

/// The regular expression of a `MATCHES` predicate, compiled once, used alike by the SQL
/// function `pk_matches_N` and by the in-memory evaluator.
///
/// Semantics, as NSPredicate's `MATCHES`: ICU regular expression syntax (Foundation's
/// `NSRegularExpression`), matched against the **whole** value (the pattern is anchored with
/// `\A(?:...)\z`), by Unicode scalars.
///
/// - `[c]` matches case-insensitively with full case folding, as `CONTAINS[c]` does: the value
///   is folded by ``TextFolding`` ("STRASSE" and "Straße" both become "strasse"), the pattern's
///   literals likewise (``RegexPatternFolding``), and ICU's case-insensitive flag is on. So
///   `'STRASSE' MATCHES[c] 'straße'`, and `'straße' MATCHES[c] 'stras+e'`.
/// - `[d]` removes diacritics (canonical decomposition, then nonspacing marks dropped) from the
///   value and from the pattern before matching.
/// - The value and the pattern are matched composed (NFC), as patterns are written.
///
/// Every evaluation is bounded (``BoundedRegex``): at most 1,000,000 steps of ICU's matching
/// engine plus 100 per UTF-16 unit of the value. Past that, or when ICU cannot finish (its
/// backtracking stack is full), evaluation throws ``PersistError`` `.invalidPredicate` naming
/// the pattern, instead of hanging the thread or answering "no match".
///
/// ```swift
/// let regex = try PredicateRegex(pattern: "b.*k", options: .caseInsensitive)
/// try regex.matches("Book") // true
/// try regex.matches("a book") // false: the whole value must match
/// ```
final class PredicateRegex: Sendable {
    /// The pattern as written.
    let pattern: String
    let options: StringComparisonOptions
    private let expression: BoundedRegex

    /// Compiles `pattern`.
    ///
    /// - Throws: ``PersistError`` `.invalidPredicate` naming the pattern when it is not a valid
    ///   regular expression.
    init(pattern: String, options: StringComparisonOptions) throws(PersistError) {
        self.pattern = pattern
        self.options = options
        let prepared = RegexPatternFolding.fold(pattern, options.textOptions)
        do {
            expression = try BoundedRegex(pattern: prepared, caseInsensitive: options.contains(.caseInsensitive))
        } catch {
            throw PersistError(.invalidPredicate,
                "Invalid regular expression \(PredicateRegex.quote(pattern)) for MATCHES (ICU syntax)")
        }
    }

    /// Whether the whole of `value` matches.
    ///
    /// - Throws: ``PersistError`` `.invalidPredicate` naming the pattern when the match runs
    ///   over its step bound, or ICU cannot finish it.
    func matches(_ value: String) throws(PersistError) -> Bool {
        let prepared = TextFolding.foldComposed(value, options.textOptions)
        switch expression.wholeMatch(prepared) {
        case .matched: return true
        case .unmatched: return false
        case .exceededLimit(let steps):
            throw PersistError(.invalidPredicate,
                "The regular expression \(PredicateRegex.quote(pattern)) for MATCHES gave up after \(steps) steps on a value of "
                    + "\(prepared.utf16.count) UTF-16 units (the bound is \(BoundedRegex.baseSteps) steps plus \(BoundedRegex.stepsPerUnit) per unit): "
                    + "it backtracks too much; write it without nested or overlapping repetition")
        case .failed:
            throw PersistError(.invalidPredicate,
                "The regular expression \(PredicateRegex.quote(pattern)) for MATCHES could not finish on a value of "
                    + "\(prepared.utf16.count) UTF-16 units (ICU's backtracking stack is full)")
        }
    }

    /// Whether the whole of the UTF-8 `value` matches (invalid UTF-8 repaired with U+FFFD).
    func matches(_ value: UnsafeBufferPointer<UInt8>) throws(PersistError) -> Bool {
        try matches(String(decoding: value, as: UTF8.self))
    }

    /// The pattern quoted for messages, shortened when long.
    static func quote(_ pattern: String) -> String {
        let shown = pattern.count > 80 ? String(pattern.prefix(77)) + "..." : pattern
        return "'" + shown + "'"
    }
}
