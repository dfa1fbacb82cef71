/// A constant in a format string.
indirect enum PredicateFormatValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    /// The `index`th argument consumed by `%@` (the argument itself is looked up later).
    case argument(index: Int)
    /// `{1, 2, 3}`: an aggregate literal, for `IN`.
    case list([PredicateFormatValue])
    /// `$NAME`: a variable, given a value by `withSubstitutionVariables(_:)`.
    case variable(String)
}
