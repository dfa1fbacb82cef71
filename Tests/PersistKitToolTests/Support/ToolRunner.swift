import Foundation
import PersistKitTestSupport
import XCTest

/// What one run of `persistkit` did.
struct ToolResult {
    let status: Int32
    let stdout: String
    let stderr: String

    /// The standard output's lines, without the final empty one.
    var lines: [String] {
        let lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return lines.last == "" ? Array(lines.dropLast()) : lines
    }
}

/// Runs the built `persistkit` binary (next to the test bundle) as a user would, its output
/// collected in files (never a terminal).
enum ToolRunner {
    static let url: URL? = builtExecutable(named: "persistkit")

    @discardableResult
    static func run(_ arguments: [String], environment extra: [String: String] = [:],
                    file: StaticString = #filePath, line: UInt = #line) throws -> ToolResult {
        let binary = try XCTUnwrap(url, "the persistkit binary is not built next to the tests", file: file, line: line)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("persistkit-run-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("stdout"), errURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PERSISTKIT_SQL_DEBUG"] = nil
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return ToolResult(status: process.terminationStatus,
                          stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                          stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// Runs `persistkit`, expecting exit 0 and nothing on standard error.
    @discardableResult
    static func ok(_ arguments: String..., environment: [String: String] = [:],
                   file: StaticString = #filePath, line: UInt = #line) throws -> ToolResult {
        let result = try run(arguments, environment: environment, file: file, line: line)
        XCTAssertEqual(result.status, 0, "persistkit \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        if environment.isEmpty { XCTAssertEqual(result.stderr, "", file: file, line: line) }
        return result
    }

    /// Runs `persistkit`, expecting it to fail with `status` and exactly one line on standard error.
    @discardableResult
    static func fails(_ arguments: String..., status: Int32, file: StaticString = #filePath, line: UInt = #line) throws -> ToolResult {
        let result = try run(arguments, file: file, line: line)
        XCTAssertEqual(result.status, status, "persistkit \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        XCTAssertTrue(result.stderr.hasPrefix("persistkit: "), result.stderr, file: file, line: line)
        XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, "one line: \(result.stderr)", file: file, line: line)
        return result
    }
}

/// The bytes of a store file and of its write-ahead log, to prove a command changed neither.
func storeBytes(_ url: URL) -> Data {
    let main = (try? Data(contentsOf: url)) ?? Data()
    let wal = (try? Data(contentsOf: URL(fileURLWithPath: url.path + "-wal"))) ?? Data()
    return main + wal
}
