import Foundation
import TerminalProgress

/// Standard output and error for `persistkit`: lines, control characters made visible.
enum Output {
    /// Writes a line to standard output.
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes a line to standard error.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// `text` with control characters (C0, DEL, C1) written as `\u{1B}`, so that a value in a
    /// store cannot move the cursor or recolour the terminal.
    static func visible(_ text: String) -> String { ProgressBar.visible(text) }
}
