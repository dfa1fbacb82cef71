import Foundation
import Synchronization

/// A one-line progress bar on standard error, drawn only when standard error is a terminal
/// (piped or redirected, nothing is drawn), at most ten times a second (a new step at once): what `persistkit` and
/// `tasks` show during long work. One command owns it.
package final class ProgressBar: Sendable {
    private struct State {
        var lastDraw: UInt64 = 0
        var lastWhat = ""
        var isShown = false
    }

    private let isTerminal = isatty(STDERR_FILENO) == 1
    /// Reports may come from a callback on another thread (a migration's): one lock for both fields.
    private let state = Mutex(State())

    package init() {}

    /// Shows `done` of `total`, with what is being done (control characters made visible).
    package func show(_ what: String, done: Int, total: Int) {
        guard isTerminal, total > 0 else { return }
        state.withLock { state in
            let now = DispatchTime.now().uptimeNanoseconds
            // A new step, and the end, are drawn at once.
            guard now - state.lastDraw > 100_000_000 || done >= total || what != state.lastWhat else { return }
            state.lastDraw = now
            state.lastWhat = what
            let width = 30
            let fraction = min(1, Double(max(0, done)) / Double(total))
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            FileHandle.standardError.write(Data("\r\u{1B}[K[\(bar)] \(Int(fraction * 100))% \(Self.visible(what))".utf8))
            state.isShown = true
        }
    }

    /// Removes the bar, so that what follows starts on a clean line.
    package func clear() {
        state.withLock { state in
            guard state.isShown else { return }
            FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
            state.isShown = false
        }
    }

    deinit { clear() }

    /// `text` with control characters (C0, DEL, C1) written as `\u{1B}`.
    package static func visible(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
