/// A string operator of a predicate, as evaluated by ``TextMatcher``.
package enum TextMatchOperator: Sendable, Hashable, CaseIterable {
    /// `==`: the whole value equals the pattern.
    case equal
    /// `CONTAINS`: the pattern occurs somewhere in the value.
    case contains
    /// `BEGINSWITH`: the value starts with the pattern.
    case beginsWith
    /// `ENDSWITH`: the value ends with the pattern.
    case endsWith
    /// `LIKE`: the whole value matches a pattern where `*` is any run of characters, `?` exactly
    /// one character, and a backslash makes the next character literal.
    case like
}
