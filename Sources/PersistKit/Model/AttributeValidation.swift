import Foundation
import PersistKitText

/// The rules an attribute's value must satisfy at save, declared with ``AttributeOption``s:
/// length bounds (strings and data), value bounds (numbers and dates), a regular expression
/// (strings).
///
/// ```swift
/// @Attribute(.minLength(1), .maxLength(1000)) var name: String
/// entity.attribute(named: "name")?.validation.maximumLength   // 1000
/// ```
///
/// Rules belong to the code, not to the stored schema: they are not part of the model's
/// ``ManagedObjectModel/versionHash`` nor of its model document, so a model loaded from a
/// document has none.
public struct AttributeValidation: Sendable, Hashable {
    /// The fewest characters (strings) or bytes (data) a value may have.
    public internal(set) var minimumLength: Int?
    /// The most characters (strings) or bytes (data) a value may have.
    public internal(set) var maximumLength: Int?
    /// The smallest value allowed, in its stored form.
    public internal(set) var minimum: SQLValue?
    /// The largest value allowed, in its stored form.
    public internal(set) var maximum: SQLValue?
    /// A regular expression (ICU syntax) the whole value must match.
    public internal(set) var pattern: String? {
        didSet { compiledPattern = pattern.flatMap(Self.compile) }
    }
    /// The pattern, anchored at both ends; compiled once, when the rule is declared.
    private var compiledPattern: BoundedRegex?

    /// No rules.
    init() {}

    /// Whether there is no rule to check.
    public var isEmpty: Bool {
        minimumLength == nil && maximumLength == nil && minimum == nil && maximum == nil && pattern == nil
    }

    /// Whether two sets of rules are the same rules.
    public static func == (lhs: AttributeValidation, rhs: AttributeValidation) -> Bool {
        lhs.minimumLength == rhs.minimumLength && lhs.maximumLength == rhs.maximumLength
            && lhs.minimum == rhs.minimum && lhs.maximum == rhs.maximum && lhs.pattern == rhs.pattern
    }

    /// Hashes the rules.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(minimumLength)
        hasher.combine(maximumLength)
        hasher.combine(minimum)
        hasher.combine(maximum)
        hasher.combine(pattern)
    }

    /// The pattern made to match whole values; nil when it is not a valid regular expression.
    static func compile(_ pattern: String) -> BoundedRegex? {
        try? BoundedRegex(pattern: pattern, caseInsensitive: false)
    }

    /// Whether the whole of `text` matches the pattern (true when there is no pattern), within
    /// ``BoundedRegex``'s step bound: a match that gives up does not accept the value.
    func matchesPattern(_ text: String) -> Bool {
        patternOutcome(text) == .matched
    }

    /// How matching `text` against the pattern ends (`.matched` when there is no pattern).
    func patternOutcome(_ text: String) -> BoundedRegex.Outcome {
        guard let compiledPattern else { return pattern == nil ? .matched : .unmatched }
        return compiledPattern.wholeMatch(text)
    }
}
