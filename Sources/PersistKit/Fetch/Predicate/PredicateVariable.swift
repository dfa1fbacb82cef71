/// A comparison of a format string whose value is a `$VARIABLE`, kept until
/// `withSubstitutionVariables(_:)` gives the variable a value.
///
/// The key, operator and options were checked when the format was parsed; the value is checked
/// against the attribute's type at substitution, with the same rules as a `%@` argument.
struct PredicateVariable: Sendable {
    /// The variable's name, without `$`.
    let name: String
    /// The key compared: an attribute, a key path through to-ones, a to-one, or the object itself.
    let attribute: String
    let op: PredicateFormatOperator
    let options: StringComparisonOptions
    /// The variable is on the left (`$LIMIT > count`).
    let flipped: Bool
    /// The operator's position in the format, for messages.
    let position: Int
    let format: String
    let entity: EntityDescription

    /// The error fetching with the variable still unsubstituted throws.
    var unsubstitutedError: PersistError {
        PersistError(.invalidPredicate,
            "The variable $\(name) at position \(position) in predicate format \"\(shownFormat)\" has no value: "
            + "give it one with withSubstitutionVariables([\"\(name)\": value]) before fetching",
            entity: entity.name, attribute: attribute)
    }

    private var shownFormat: String {
        format.count > 200 ? String(format.prefix(197)) + "..." : format
    }

    /// The comparison with `value` in place of the variable.
    ///
    /// - Throws: ``PersistError`` `.invalidPredicate` when the value does not fit the attribute
    ///   (or is not a valid regular expression for `MATCHES`, or not two bounds for `BETWEEN`).
    func substituting(_ value: Any?) throws -> PredicateNode {
        let resolver = PredicateFormatResolver(format: format, arguments: [], entity: entity)
        return try resolver.substitution(attribute, op, options, flipped: flipped, value: value, at: position)
    }
}
