import Foundation
import XCTest

/// What one run of `tasks` did.
struct CLIResult {
    let status: Int32
    let stdout: String
    let stderr: String

    /// The standard output's lines, without the final empty one.
    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastIfEmpty() }
}

extension Array where Element == String {
    func dropLastIfEmpty() -> [String] { last == "" ? Array(dropLast()) : self }
}

/// The `tasks` binary under test: `TASKS_BINARY` when set (to run these tests against another
/// build, an older one to see a test fail), else the one built next to the test bundle in the
/// products directory.
enum TasksBinary {
    static let url: URL? = {
        if let path = ProcessInfo.processInfo.environment["TASKS_BINARY"], !path.isEmpty { return URL(fileURLWithPath: path) }
        var candidates: [URL] = []
        // Linux: the test runner is an executable in the products directory.
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("tasks"))
        }
        candidates.append(Bundle.main.bundleURL.appendingPathComponent("tasks"))
        // macOS: the tests are an .xctest bundle inside the products directory.
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("tasks"))
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()
}

/// A temporary directory with a task store path in it, and a way to run `tasks` on it as a
/// user would: `TASKS_STORE` set, `HOME` inside the directory, nothing else of the caller's.
final class CLIFixture {
    let directory: URL
    let storeURL: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tasks-cli-tests-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        storeURL = directory.appendingPathComponent("store").appendingPathComponent("tasks.sqlite")
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// The environment a run gets: the caller's (for its time zone), without anything that
    /// would point `tasks` elsewhere or fix its clock, plus `TASKS_STORE`, a private `HOME`,
    /// and `LC_ALL=C.UTF-8` (dates as the tests' own formatters write them, whatever the
    /// caller's locale).
    func environment(_ extra: [String: String?] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in ["TASKS_STORE", "XDG_DATA_HOME", "NO_COLOR", "TASKS_NOW", "LC_TIME", "LANG"] { environment[key] = nil }
        environment["LC_ALL"] = "C.UTF-8"
        environment["HOME"] = directory.appendingPathComponent("home").path
        environment["TASKS_STORE"] = storeURL.path
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    /// Runs `tasks` with `arguments` and waits for it; `standardOutput` replaces the file its
    /// output is collected in (`stdout` is then empty), as `> /dev/full` would.
    @discardableResult
    func run(_ arguments: [String], environment extra: [String: String?] = [:], input: Data? = nil,
             standardOutput: FileHandle? = nil,
             file: StaticString = #filePath, line: UInt = #line) throws -> CLIResult {
        let binary = try XCTUnwrap(TasksBinary.url, "the tasks binary is not built next to the tests", file: file, line: line)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment(extra)
        process.currentDirectoryURL = directory
        // Files, not pipes: nothing can block however much is written.
        let outURL = directory.appendingPathComponent("stdout-\(UUID().uuidString)")
        let errURL = directory.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = standardOutput ?? out
        process.standardError = err
        let inputPipe = Pipe()
        process.standardInput = inputPipe
        try process.run()
        if let input { try inputPipe.fileHandleForWriting.write(contentsOf: input) }
        try inputPipe.fileHandleForWriting.close()
        process.waitUntilExit()
        try out.close()
        try err.close()
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        return CLIResult(status: process.terminationStatus,
                         stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                         stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// Runs `tasks` and fails the test unless it exits 0.
    @discardableResult
    func ok(_ arguments: String..., environment extra: [String: String?] = [:], input: Data? = nil,
            file: StaticString = #filePath, line: UInt = #line) throws -> CLIResult {
        try ok(arguments, environment: extra, input: input, file: file, line: line)
    }

    /// Runs `tasks` and fails the test unless it exits 0.
    @discardableResult
    func ok(_ arguments: [String], environment extra: [String: String?] = [:], input: Data? = nil,
            file: StaticString = #filePath, line: UInt = #line) throws -> CLIResult {
        let result = try run(arguments, environment: extra, input: input, file: file, line: line)
        XCTAssertEqual(result.status, 0, "tasks \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stderr, "", file: file, line: line)
        return result
    }

    /// Runs `tasks`, expecting it to fail with `status` and exactly `message` on standard
    /// error, and the store file to be unchanged.
    func fails(_ arguments: [String], status: Int32, message: String, environment extra: [String: String?] = [:],
               file: StaticString = #filePath, line: UInt = #line) throws {
        let before = storeBytes()
        let result = try run(arguments, environment: extra, file: file, line: line)
        XCTAssertEqual(result.status, status, "tasks \(arguments.joined(separator: " "))", file: file, line: line)
        XCTAssertEqual(result.stderr, "tasks: " + message + "\n", file: file, line: line)
        XCTAssertEqual(result.stdout, "", file: file, line: line)
        XCTAssertEqual(storeBytes(), before, "the store changed", file: file, line: line)
    }

    /// The store's bytes, its write-ahead log included.
    func storeBytes() -> Data {
        let main = (try? Data(contentsOf: storeURL)) ?? Data()
        let wal = (try? Data(contentsOf: URL(fileURLWithPath: storeURL.path + "-wal"))) ?? Data()
        return main + wal
    }

    /// `tasks list --json`, decoded.
    func list(_ extra: String...) throws -> ListOutput {
        let result = try run(["list", "--json"] + extra)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try JSONDecoder().decode(ListOutput.self, from: Data(result.stdout.utf8))
    }

    /// Creates the store and removes its example tasks, for tests that want it empty.
    func makeEmptyStore() throws {
        let references = try list().sections.flatMap(\.tasks).map { String($0.ref) }
        if !references.isEmpty { try runExpectingSuccess(["rm"] + references) }
    }

    private func runExpectingSuccess(_ arguments: [String]) throws {
        let result = try run(arguments)
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    /// Adds a task and returns its number, read from "Added #12 ...".
    @discardableResult
    func add(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) throws -> Int64 {
        try add(arguments, file: file, line: line)
    }

    /// Adds a task and returns its number.
    @discardableResult
    func add(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Int64 {
        let result = try run(["add"] + arguments, file: file, line: line)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        let number = result.stdout.split(separator: " ").dropFirst().first.map { $0.dropFirst() }.flatMap { Int64($0) }
        return try XCTUnwrap(number, "no reference in \(result.stdout)", file: file, line: line)
    }
}

/// The JSON shape of `tasks list --json`.
struct ListOutput: Decodable {
    struct Section: Decodable {
        let name: String
        let count: Int
        let tasks: [Row]
    }

    struct Row: Decodable, Equatable {
        let ref: Int64
        let name: String
        let notes: String?
        let due: String?
        let dueAt: String?
        let dueStatus: String?
        let isComplete: Bool
        let createdAt: String
        let completedAt: String?
        let priority: String
        let project: String?
        let tags: [String]
        let remindAt: String?
        let plannedFor: String?
        let backloggedAt: String?
    }

    let sections: [Section]

    var allTasks: [Row] { sections.flatMap(\.tasks) }

    func task(_ ref: Int64) -> Row? { allTasks.first { $0.ref == ref } }
}
