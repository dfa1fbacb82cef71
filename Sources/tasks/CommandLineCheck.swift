import ArgumentParser

/// Checks of the command line that argument-parser words poorly: an unknown command (which it
/// reads as arguments of the default `list`), and a negative task number (which it reads as an
/// option).
enum CommandLineCheck {
    /// The commands, in the order `tasks --help` lists them.
    static var commandNames: [String] {
        Tasks.configuration.subcommands.compactMap { $0.configuration.commandName }
    }

    /// The commands whose arguments are task references.
    private static let referenceCommands: Set<String> = ["show", "edit", "done", "undo", "rm", "plan", "unplan"]
    /// Their options that take a value: what follows one is that value, not a reference.
    private static let valueOptions: Set<String> = ["--store", "--name", "--notes", "--due", "--project", "--tag", "--untag",
                                                    "--priority", "--remind", "--day"]

    /// - Throws: a usage ``CommandError`` when the first argument is neither an option nor a
    ///   command: `unknown command 'x' (commands: list, add, ...)`.
    static func checkCommand(_ arguments: [String]) throws {
        guard let first = arguments.first, !first.hasPrefix("-"),
              first != "help", !commandNames.contains(first) else { return }
        throw CommandError.usage("unknown command '\(first)' (commands: \(commandNames.joined(separator: ", ")))")
    }

    /// The usage error for a negative number given as a task reference (`tasks show -1`), or
    /// nil when there is none; asked only once argument-parser has refused the arguments.
    static func negativeReferenceError(in arguments: [String]) -> CommandError? {
        guard let command = arguments.first, referenceCommands.contains(command) else { return nil }
        var previous = command
        for argument in arguments.dropFirst() {
            if argument == "--" { return nil }
            if argument.count > 1, argument.hasPrefix("-"), argument.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }),
               !valueOptions.contains(previous) {
                return Arguments.notAReference(argument)
            }
            previous = argument
        }
        return nil
    }
}
