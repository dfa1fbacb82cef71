import Foundation
import XCTest

/// Every `tasks` example in README.md is the real output: the console blocks of its "The
/// `tasks` app" section are run, in order, as one session on a new store, and each command's
/// output must be what the README shows, to the character (see ``ReadmeTranscript``).
///
/// With `README_EXAMPLES_WRITE=1` the test writes the real output of each command into
/// README.md instead: a deliberate act, to be read over before it is committed.
final class ReadmeExampleTests: XCTestCase {
    private let readmeURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    func testEveryTasksExampleIsTheRealOutput() throws {
        let readme = try String(contentsOf: readmeURL, encoding: .utf8)
        let transcript = try ReadmeTranscript(readme: readme)
        XCTAssertGreaterThanOrEqual(transcript.blocks.count, 3, "the tasks section shows its examples as console blocks")
        let fixture = try CLIFixture()
        var session = Session(fixture: fixture)
        var problems: [String] = []
        var rewrites: [(line: Int, count: Int, output: [String])] = []
        for block in transcript.blocks {
            for command in block.commands {
                let environment = block.environment.merging(session.exports) { _, exported in exported }
                let real = try session.run(command, environment: environment)
                guard real.output != command.output else { continue }
                problems.append("README.md:\(command.line): $ \(command.text)\n--- README shows:\n"
                                + command.output.joined(separator: "\n") + "\n--- tasks printed:\n" + real.output.joined(separator: "\n"))
                if real.rewritable { rewrites.append((command.line, command.output.count, real.output)) }
            }
        }
        if ProcessInfo.processInfo.environment["README_EXAMPLES_WRITE"] == "1", !rewrites.isEmpty {
            var lines = readme.components(separatedBy: "\n")
            for rewrite in rewrites.reversed() {
                lines.replaceSubrange(rewrite.line..<(rewrite.line + rewrite.count), with: rewrite.output)
            }
            try lines.joined(separator: "\n").write(to: readmeURL, atomically: true, encoding: .utf8)
        }
        XCTAssertTrue(problems.isEmpty, "\n" + problems.joined(separator: "\n\n"))
    }

    /// The session the README's commands run in: one store, the variables `export` set.
    private struct Session {
        let fixture: CLIFixture
        var exports: [String: String] = [:]

        init(fixture: CLIFixture) {
            self.fixture = fixture
        }

        /// What a command printed (standard error, then standard output), as lines; whether
        /// the README's text for it can be rewritten from it.
        mutating func run(_ command: ReadmeTranscript.Command,
                          environment: [String: String]) throws -> (output: [String], rewritable: Bool) {
            guard let line = ShellWords(command.text), let program = line.words.first else {
                return (["(README.md:\(command.line): cannot read this command line)"], false)
            }
            let arguments = Array(line.words.dropFirst())
            switch program {
            case "tasks" where arguments.first == "watch":
                return (try watch(arguments, command: command, environment: environment), true)
            case "tasks":
                let output = try line.output.map { path -> FileHandle? in
                    let url = file(path)
                    if !FileManager.default.fileExists(atPath: url.path) { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
                    return try FileHandle(forWritingTo: url)
                } ?? nil
                let result = try fixture.run(arguments, environment: environment.mapValues { Optional($0) }, standardOutput: output)
                try output?.close()
                let shown = lines(result.stdout)
                return (lines(result.stderr) + (line.headLines.map { Array(shown.prefix($0)) } ?? shown), true)
            case "export":
                for assignment in arguments {
                    let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
                    // The store is the fixture's: the README's throwaway path is for readers.
                    if parts.count == 2, parts[0] != "TASKS_STORE" { exports[parts[0]] = parts[1] }
                }
                return ([], true)
            case "echo":
                guard let path = line.output else { return (lines(arguments.joined(separator: " ") + "\n"), true) }
                try Data((arguments.joined(separator: " ") + "\n").utf8).write(to: file(path))
                return ([], true)
            default:
                return (["(README.md:\(command.line): the examples run tasks, export and echo, not \(program))"], false)
            }
        }

        /// Runs `tasks watch`: its first lines, then for each `# another terminal: tasks ...`
        /// line that command, and what the watch printed after it; `^C` stops it. The lines
        /// returned are the README's layout of what happened.
        private func watch(_ arguments: [String], command: ReadmeTranscript.Command,
                           environment: [String: String]) throws -> [String] {
            let watch = try RunningTasks(fixture, arguments, environment: environment.mapValues { Optional($0) })
            var expected = ""
            var shown: [String] = []
            var printed = ""
            func settle() {
                // Output arrives when the watch has merged (within a second); what it printed
                // after that is compared as it is.
                _ = watch.wait(timeout: 10) { $0 == expected }
                Thread.sleep(forTimeInterval: 0.3)
                let now = watch.text
                shown += lines(String(now.dropFirst(printed.count)))
                printed = now
            }
            var segment: [String] = []
            for line in command.output {
                let elsewhere = "# another terminal: "
                if line.hasPrefix(elsewhere) || line == "^C" {
                    expected += segment.map { $0 + "\n" }.joined()
                    segment = []
                    settle()
                    shown.append(line)
                    if line.hasPrefix(elsewhere), let other = ShellWords(String(line.dropFirst(elsewhere.count))),
                       other.words.first == "tasks" {
                        _ = try fixture.run(Array(other.words.dropFirst()), environment: environment.mapValues { Optional($0) })
                    } else if line == "^C" {
                        watch.interrupt()
                    }
                } else {
                    segment.append(line)
                }
            }
            if !segment.isEmpty {
                expected += segment.map { $0 + "\n" }.joined()
                settle()
            }
            if command.output.last != "^C" { watch.interrupt() }
            return shown
        }

        /// A path of a command line: absolute, or in the session's directory (its working one).
        private func file(_ path: String) -> URL {
            path.hasPrefix("/") ? URL(fileURLWithPath: path) : fixture.directory.appendingPathComponent(path)
        }

        private func lines(_ text: String) -> [String] {
            text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastIfEmpty()
        }
    }
}
