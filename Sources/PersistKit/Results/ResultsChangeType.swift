/// The kinds of change a results controller reports to its delegate.
public enum ResultsChangeType: Sendable {
    /// A row or section appeared.
    case insert
    /// A row or section went away.
    case delete
    /// A row moved.
    case move
    /// A row's object changed but kept its position.
    case update
}
