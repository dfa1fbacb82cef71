import Foundation
import PersistKit
import PersistKitTestSupport
import TaskModel
import XCTest

/// The `tasks` binary run as a user would, on stores in a test's directory, syncing with the
/// test's server ($TASKS_SYNC_URL).
struct TasksCLI {
    let directory: TemporaryDirectory
    let serverURL: String

    private var binary: URL {
        get throws {
            let url = try XCTUnwrap(Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("tasks"))
            try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: url.path), "tasks is not built beside the tests")
            return url
        }
    }

    /// Runs tasks on the store `store`; returns (status, stdout, stderr).
    @discardableResult
    func run(_ store: String, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let out = directory.file("out-" + UUID().uuidString), err = directory.file("err-" + UUID().uuidString)
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = try start(store, arguments, stdout: out, stderr: err)
        while process.isRunning { usleep(5_000) }
        return (process.terminationStatus, try String(contentsOf: out, encoding: .utf8), try String(contentsOf: err, encoding: .utf8))
    }

    /// Starts tasks on the store `store`, its output going to the files given.
    func start(_ store: String, _ arguments: [String], stdout: URL, stderr: URL) throws -> Process {
        let process = Process()
        process.executableURL = try binary
        process.arguments = arguments + ["--store", directory.file(store + ".sqlite").path]
        var environment = ProcessInfo.processInfo.environment
        environment["TASKS_SYNC_URL"] = serverURL
        environment["NO_COLOR"] = "1"
        environment["TASKS_STORE"] = nil
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// `tasks list` of the store `store` with the task numbers (each store's own keys) as `#N`,
    /// its lines sorted: two stores holding the same tasks print the same.
    func listWithoutNumbers(_ store: String) throws -> String {
        try run(store, ["list"]).out.replacingOccurrences(of: #"#\d+ "#, with: "#N ", options: .regularExpression)
            .split(separator: "\n").sorted().joined(separator: "\n")
    }

    /// The arrays of a JSON object printed by a command, by key.
    func json(_ text: String) throws -> [String: [Any]] {
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
        return object.compactMapValues { $0 as? [Any] }
    }

    /// The integer an SQL query of the store `store` gives.
    func storeCount(_ store: String, _ query: String) throws -> Int64 {
        let container = try PersistentContainer(model: TaskStore.makeModel(), store: .sqlite(directory.file(store + ".sqlite")))
        return try container.readStore { sql in
            guard case .integer(let count) = try sql.rows(query).first?.first else { return -1 }
            return count
        }
    }
}
