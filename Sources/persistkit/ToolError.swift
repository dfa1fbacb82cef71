import ArgumentParser
import PersistKit

/// A failure `persistkit` reports itself, as `persistkit: MESSAGE` on standard error.
struct ToolError: Error {
    /// The text after `persistkit: `, one line.
    let message: String
    /// 1 for a command that failed, 64 for bad usage.
    let exitCode: Int32

    static func failure(_ message: String) -> ToolError { ToolError(message: message, exitCode: ExitCode.failure.rawValue) }
    static func usage(_ message: String) -> ToolError { ToolError(message: message, exitCode: ExitCode.validationFailure.rawValue) }

    /// The one line for a PersistKit error: its message's first line, control characters visible.
    static func line(for error: PersistError) -> String {
        let first = error.message.split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(error.code)"
        return lowercasedFirst(Output.visible(first))
    }

    static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first, first.isUppercase, text.dropFirst().first.map({ !$0.isUppercase }) ?? true else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
