import Foundation

/// The `tasks` examples of README.md: every ```` ```console ```` block of its "The `tasks` app"
/// section, in order, each a transcript of commands (`$ tasks ...`) and what they print.
///
/// An HTML comment before a block, `<!-- example: TASKS_NOW=2026-11-21T09:00:00Z TZ=UTC -->`,
/// sets environment variables for that block and the ones after it (invisible to readers; the
/// README says in words what the examples assume).
///
/// In a block, the lines after a command up to the next one are its output, standard error
/// first (as a terminal shows an error). `tasks watch` keeps running: its output lines come
/// first, then each `# another terminal: tasks ...` line runs that command elsewhere, and the
/// lines after it are what the watch prints then; `^C` stops it.
struct ReadmeTranscript {
    /// One command and what it prints.
    struct Command {
        /// The command line, after `$ `.
        let text: String
        /// Its line in README.md, from 1.
        let line: Int
        /// What it prints.
        var output: [String] = []
    }

    /// One console block, and the environment the comments before it set.
    struct Block {
        let line: Int
        let environment: [String: String]
        var commands: [Command] = []
    }

    let blocks: [Block]

    /// The blocks of `readme`'s tasks section.
    ///
    /// - Throws: a description of a block it cannot read (output before any command).
    init(readme: String) throws {
        let lines = readme.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "## The `tasks` app") else { throw Problem("no '## The `tasks` app' section") }
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("## ") } ?? lines.endIndex
        var blocks: [Block] = []
        var environment: [String: String] = [:]
        var current: Block?
        for index in start..<end {
            let line = lines[index]
            if var block = current {
                if line == "```" {
                    blocks.append(block)
                    current = nil
                } else if line.hasPrefix("$ ") {
                    block.commands.append(Command(text: String(line.dropFirst(2)), line: index + 1))
                    current = block
                } else {
                    guard !block.commands.isEmpty else { throw Problem("README.md:\(index + 1): output before any command") }
                    block.commands[block.commands.count - 1].output.append(line)
                    current = block
                }
            } else if line == "```console" {
                current = Block(line: index + 1, environment: environment)
            } else if line.hasPrefix("<!-- example:"), line.hasSuffix("-->") {
                let body = line.dropFirst("<!-- example:".count).dropLast(3)
                for setting in body.split(separator: " ") {
                    let parts = setting.split(separator: "=", maxSplits: 1)
                    guard parts.count == 2 else { throw Problem("README.md:\(index + 1): '\(setting)' is not NAME=VALUE") }
                    environment[String(parts[0])] = String(parts[1])
                }
            }
        }
        if current != nil { throw Problem("README.md: a console block is not closed") }
        self.blocks = blocks
    }

    struct Problem: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
