/// Keeps an observation alive: call ``cancel()`` or let the token go to stop it.
///
/// ```swift
/// var token: ObservationToken? = results.observe { change in apply(change) }
/// token?.cancel()   // or: token = nil
/// ```
public final class ObservationToken {
    private var cancellation: (() -> Void)?

    init(_ cancellation: @escaping () -> Void) {
        self.cancellation = cancellation
    }

    /// Stops the observation. Calling it again does nothing.
    ///
    /// ```swift
    /// token.cancel()
    /// ```
    public func cancel() {
        cancellation?()
        cancellation = nil
    }

    deinit { cancellation?() }
}
