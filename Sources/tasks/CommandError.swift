import ArgumentParser

/// A failure `tasks` reports itself, as `tasks: MESSAGE` on standard error.
struct CommandError: Error {
    /// The text after `tasks: `, one line.
    let message: String
    /// 1 for a command that failed, 64 (argument-parser's usage code) for bad usage.
    let exitCode: Int32

    /// A command that could not be done: no such task, an unreadable file, a store problem.
    static func failure(_ message: String) -> CommandError {
        CommandError(message: message, exitCode: ExitCode.failure.rawValue)
    }

    /// Arguments that do not make sense: a bad date or reference, conflicting options.
    static func usage(_ message: String) -> CommandError {
        CommandError(message: message, exitCode: ExitCode.validationFailure.rawValue)
    }
}
