/// `ANY` (or `SOME`), `ALL`, `NONE` before a key path through a to-many.
enum PredicateFormatQuantifier: String, Equatable, Sendable {
    case any = "ANY"
    case all = "ALL"
    case none = "NONE"
}
