import Foundation

/// Where `tasks` writes: unbuffered, so `watch` lines reach a pipe as they happen, and checked,
/// so that a full disk or a closed pipe is an error rather than output silently lost.
enum Console {
    /// Writes `text` and a newline to standard output.
    ///
    /// - Throws: a failure ``CommandError`` when the write fails ("no space left on device").
    static func out(_ text: String) throws {
        try outData(Data((text + "\n").utf8))
    }

    /// Writes each line followed by a newline to standard output, in one write.
    ///
    /// - Throws: as ``out(_:)``.
    static func out(lines: [String]) throws {
        guard !lines.isEmpty else { return }
        try outData(Data(lines.map { $0 + "\n" }.joined().utf8))
    }

    /// Writes raw data to standard output (exports).
    ///
    /// - Throws: as ``out(_:)``.
    static func outData(_ data: Data) throws {
        if let errorNumber = OutputFile.writeAll(data, to: STDOUT_FILENO) {
            throw CommandError.failure("cannot write to standard output: " + OutputFile.reason(errorNumber))
        }
    }

    /// Writes `text` and a newline to standard error.
    static func error(_ text: String) {
        // Standard error failing leaves nowhere to say so: the exit status still tells.
        _ = OutputFile.writeAll(Data((text + "\n").utf8), to: STDERR_FILENO)
    }

    /// Whether standard output is a terminal.
    static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}
