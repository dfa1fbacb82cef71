import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Processes that open the same new store at the same moment all succeed, and make one store.
final class StoreCreationRaceTests: XCTestCase {
    static let childRole = "create-race"

    func testTwoProcessesCreateOneStore() throws {
        try race(processes: 2)
    }

    func testEightProcessesCreateOneStore() throws {
        try race(processes: 8)
    }

    /// Starts `processes` children that, round after round, wait at a start line and then all
    /// open the same new store; checks every round: all opened, one identifier, one schema.
    private func race(processes: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let rounds = ChildProcess.isCI ? 10 : 40
        let directory = TemporaryDirectory()
        let reference = try schema(of: directory.file("reference.sqlite"))
        let children = try (0..<processes).map { index in
            try ChildProcess.start(role: Self.childRole,
                                   settings: ["DIRECTORY": directory.url.path, "ROUNDS": String(rounds), "INDEX": String(index)])
        }
        defer { for child in children where child.isRunning { kill(child.processIdentifier, SIGKILL) } }
        var failedRounds: [String] = []
        for round in 0..<rounds {
            let deadline = Date().addingTimeInterval(120)
            for index in 0..<processes where ChildProcess.awaitReport(at: directory.file("ready-\(round)-\(index)").path, until: deadline) == nil {
                XCTFail("process \(index) never reached round \(round)", file: file, line: line)
                return
            }
            _ = FileManager.default.createFile(atPath: directory.file("go-\(round)").path, contents: nil)
            var problems: [String] = []
            var identifiers: Set<String> = []
            for index in 0..<processes {
                guard let result = ChildProcess.awaitReport(at: directory.file("result-\(round)-\(index)").path, until: deadline) else {
                    XCTFail("process \(index) never finished round \(round)", file: file, line: line)
                    return
                }
                if result.hasPrefix("ok ") {
                    identifiers.insert(String(result.dropFirst(3)))
                } else {
                    problems.append("process \(index): \(result)")
                }
            }
            problems += check(directory.file("store-\(round).sqlite"), identifiers: identifiers, reference: reference)
            if !problems.isEmpty { failedRounds.append("round \(round): " + problems.joined(separator: "; ")) }
        }
        for child in children {
            XCTAssertTrue(ChildProcess.wait(for: child), file: file, line: line)
            XCTAssertEqual(child.terminationStatus, 0, "a child process failed", file: file, line: line)
        }
        XCTAssertTrue(failedRounds.isEmpty, "\(failedRounds.count) of \(rounds) rounds failed with \(processes) processes:\n"
                      + failedRounds.prefix(8).joined(separator: "\n"), file: file, line: line)
    }

    /// What is wrong with a store the processes made: not one identifier, or another schema.
    private func check(_ url: URL, identifiers: Set<String>, reference: [String]) -> [String] {
        var problems: [String] = []
        do {
            let container = try PersistentContainer(model: Self.model(), store: .sqlite(url))
            if !identifiers.isSubset(of: [container.storeIdentifier]) {
                problems.append("the processes saw \(identifiers.count) store identifiers, the store has \(container.storeIdentifier)")
            }
            let schema = try Self.schema(of: container)
            if schema != reference { problems.append("another schema: \(schema)") }
        } catch {
            problems.append("the store does not open afterwards: \(error)")
        }
        return problems
    }

    /// The schema a store made by one process alone has.
    private func schema(of url: URL) throws -> [String] {
        try Self.schema(of: PersistentContainer(model: Self.model(), store: .sqlite(url)))
    }

    /// Every schema object (type, name, SQL) and every metadata key, in order.
    private static func schema(of container: PersistentContainer) throws -> [String] {
        try container.store.withConnection { connection in
            var lines: [String] = []
            let objects = try connection.prepare("SELECT type, name, coalesce(sql, '') FROM sqlite_master ORDER BY name")
            while try objects.step() {
                lines.append([0, 1, 2].map { objects.string(at: $0) }.joined(separator: " "))
            }
            let keys = try connection.prepare("SELECT key FROM \(SQLName.quote(SQLiteStore.metadataTable)) ORDER BY key")
            while try keys.step() { lines.append("metadata " + keys.string(at: 0)) }
            return lines
        }
    }

    private static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: standardEntities)
    }

    /// The child: for every round, waits at the start line, opens the round's store, reports.
    static func playChild() -> Int32 {
        guard let directory = ChildProcess.setting("DIRECTORY"), let rounds = ChildProcess.setting("ROUNDS").flatMap(Int.init),
              let index = ChildProcess.setting("INDEX"), let model = try? model() else { return 2 }
        for round in 0..<rounds {
            ChildProcess.report("ready", to: directory + "/ready-\(round)-\(index)")
            let deadline = Date().addingTimeInterval(300)
            while !FileManager.default.fileExists(atPath: directory + "/go-\(round)") {
                guard Date() < deadline else { return 4 }
                usleep(100)
            }
            var result: String
            do {
                let container = try PersistentContainer(model: model, store: .sqlite(URL(fileURLWithPath: directory + "/store-\(round).sqlite")))
                _ = try container.newContext().count(for: FetchRequest<TestTask>())
                result = "ok " + container.storeIdentifier
            } catch {
                result = "error \(error)"
            }
            ChildProcess.report(result, to: directory + "/result-\(round)-\(index)")
        }
        return 0
    }
}
