import Foundation

/// Standard output and error for `persistkit`: lines, control characters made visible, and a
/// progress bar on standard error when it is a terminal.
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
    static func visible(_ text: String) -> String {
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
