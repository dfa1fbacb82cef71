import Foundation

/// ANSI colours, used only when standard output is a terminal and `NO_COLOR` is unset or empty.
struct Style {
    /// Whether escapes are written at all.
    let isEnabled: Bool

    /// The style for standard output in this environment.
    static func forStandardOutput(environment: [String: String] = ProcessInfo.processInfo.environment) -> Style {
        // https://no-color.org: a NO_COLOR that is set and not empty turns colour off; so does a
        // dumb terminal.
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        return Style(isEnabled: Console.outputIsTerminal && !noColor && environment["TERM"] != "dumb")
    }

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func green(_ text: String) -> String { wrap(text, "32") }
    func yellow(_ text: String) -> String { wrap(text, "33") }
    func blue(_ text: String) -> String { wrap(text, "34") }
    func cyan(_ text: String) -> String { wrap(text, "36") }

    private func wrap(_ text: String, _ code: String) -> String {
        isEnabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
