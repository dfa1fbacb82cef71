/// Why a ``ResultsDiffInput`` describes no possible change: a bug in whoever built it.
struct ResultsDiffInconsistency: Error, Sendable, CustomStringConvertible {
    /// What does not fit.
    var description: String
}
