/// Text from a store or a file made safe to print on a terminal: control characters shown as
/// visible escapes instead of being obeyed.
///
/// A task's name or notes could hold ESC sequences that recolour the terminal, move the
/// cursor or rewrite what was printed before; every control character (C0, DEL and C1:
/// U+0000–U+001F, U+007F–U+009F) is printed as `\u{XX}`, in hexadecimal, the way Swift
/// writes it. Everything else, backslashes included, is printed as it is.
///
/// ```swift
/// TerminalText.visible("Pay \u{1B}[31mrent")   // "Pay \\u{1B}[31mrent": the escape shows, unobeyed
/// ```
enum TerminalText {
    /// `text` with each control character replaced by `\u{XX}`.
    static func visible(_ text: String) -> String {
        // Nearly every name has no control character: hand it back as it is.
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result.append(contentsOf: escape(scalar).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// A task's name in double quotes, as messages show it: `"Buy milk"`, control characters
    /// made visible.
    static func quoted(_ name: String) -> String {
        "\"" + visible(name) + "\""
    }

    /// `\u{1B}` for ESC: at least two upper-case hexadecimal digits.
    static func escape(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return "\\u{" + (digits.count < 2 ? "0" + digits : digits) + "}"
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
