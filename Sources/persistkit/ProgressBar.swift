import Foundation

/// A one-line progress bar on standard error, drawn only when standard error is a terminal
/// (piped or redirected, nothing is drawn), at most ten times a second. One command owns it.
final class ProgressBar {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private var lastDraw: UInt64 = 0
    private var isShown = false

    /// Shows `done` of `total`, with what is being done.
    func show(_ what: String, done: Int, total: Int) {
        guard isTerminal, total > 0 else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastDraw > 100_000_000 || done >= total else { return }
        lastDraw = now
        let width = 30
        let fraction = min(1, Double(done) / Double(total))
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        FileHandle.standardError.write(Data("\r\u{1B}[K[\(bar)] \(Int(fraction * 100))% \(Output.visible(what))".utf8))
        isShown = true
    }

    /// Removes the bar, so that what follows starts on a clean line.
    func clear() {
        guard isShown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        isShown = false
    }

    deinit { clear() }
}
