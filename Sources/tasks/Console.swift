import Foundation

/// Where `tasks` writes: unbuffered, so `watch` lines reach a pipe as they happen.
enum Console {
    /// Writes `text` and a newline to standard output.
    static func out(_ text: String) {
        write(text + "\n", to: FileHandle.standardOutput)
    }

    /// Writes `text` and a newline to standard error.
    static func error(_ text: String) {
        write(text + "\n", to: FileHandle.standardError)
    }

    /// Writes raw data to standard output (exports).
    static func outData(_ data: Data) {
        try? FileHandle.standardOutput.write(contentsOf: data)
    }

    private static func write(_ text: String, to handle: FileHandle) {
        // A closed pipe is the reader's choice (`tasks | head`): nothing to report.
        try? handle.write(contentsOf: Data(text.utf8))
    }

    /// Whether standard output is a terminal.
    static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}
