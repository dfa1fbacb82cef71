import Foundation
import PersistKit
import PersistKitTestSupport
@testable import PersistKitSync
import XCTest

/// A PostgreSQL server per test class (started on first use, stopped by the class's
/// `tearDown`), a database per test, and stores on files of the test's own directory.
class SyncTestCase: XCTestCase {
    nonisolated(unsafe) private static var servers: [String: TestPostgres] = [:]   // by class; tests of a class run one at a time
    private static let serversLock = NSLock()

    /// The class's server, started on first use (skips the test without PostgreSQL).
    var postgres: TestPostgres {
        get throws {
            let name = String(describing: type(of: self))
            Self.serversLock.lock()
            defer { Self.serversLock.unlock() }
            if let server = Self.servers[name] { return server }
            let server = try TestPostgres.start(ssl: try Self.serverCertificate())
            Self.servers[name] = server
            return server
        }
    }

    /// The certificate and key the class's server offers TLS with; nil (no TLS) unless a
    /// class overrides it.
    class func serverCertificate() throws -> (certificate: URL, key: URL)? { nil }

    override class func tearDown() {
        serversLock.lock()
        let server = servers[String(describing: self)]
        servers[String(describing: self)] = nil
        serversLock.unlock()
        server?.stop()
        super.tearDown()
    }

    let directory = TemporaryDirectory(prefix: "persistkit-sync")
    private(set) var database = ""

    override func setUp() {
        super.setUp()
        database = "test_" + UUID().uuidString.prefix(8).lowercased()
    }

    /// A server URL of a fresh database for this test (made on first use).
    func serverURL(user: String = "postgres") throws -> String {
        let postgres = try self.postgres
        if (try postgres.psql("SELECT count(*) FROM pg_database WHERE datname = '\(database)'")) == "0" {
            try postgres.psql("CREATE DATABASE \(database)")
        }
        return postgres.url(user: user, database: database)
    }

    func server(user: String = "postgres") throws -> SyncServer {
        try SyncServer(url: serverURL(user: user))
    }

    /// A container on a new store file named `name` in the test's directory.
    func makeContainer(_ name: String, model: ManagedObjectModel? = nil) throws -> PersistentContainer {
        try PersistentContainer(model: model ?? SyncModel.make(), store: .sqlite(directory.file(name + ".sqlite")))
    }

    func engine(_ container: PersistentContainer, space: String = "space", user: String = "postgres",
                configure: (inout SyncConfiguration) -> Void = { _ in }) throws -> SyncEngine {
        var configuration = SyncConfiguration()
        configuration.excludedEntities = ["SLocal"]
        configure(&configuration)
        return SyncEngine(container: container, server: try server(user: user), space: space, configuration: configuration)
    }

    /// Waits until `condition` holds, failing the test after `timeout` seconds.
    func waitUntil(_ what: String, timeout: TimeInterval = 15, _ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline else { return XCTFail("timed out waiting until \(what)") }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
    }
}

/// A store's objects as plain values, to compare stores: each object by its global ID.
struct GraphSnapshot: Equatable, CustomStringConvertible {
    var notes: [String: NoteValues] = [:]
    var folders: [String: FolderValues] = [:]
    var labels: [String: String] = [:]

    struct NoteValues: Equatable {
        var title: String, body: String?, count: Int, score: Double, due: Date?
        var folder: String?
        var labels: [String]
    }

    struct FolderValues: Equatable {
        var name: String
        var notes: [String]
        var pinned: [String]
    }

    var description: String {
        var lines: [String] = []
        for (id, note) in notes.sorted(by: { $0.key < $1.key }) {
            lines.append("note \(id): \(note.title) \(note.body ?? "-") \(note.count) \(note.score) folder=\(note.folder ?? "-") labels=\(note.labels)")
        }
        for (id, folder) in folders.sorted(by: { $0.key < $1.key }) {
            lines.append("folder \(id): \(folder.name) notes=\(folder.notes) pinned=\(folder.pinned)")
        }
        for (id, label) in labels.sorted(by: { $0.key < $1.key }) { lines.append("label \(id): \(label)") }
        return lines.joined(separator: "\n")
    }

    /// The store's graph, objects named by their global IDs (as PersistKitSync gives them).
    static func of(_ container: PersistentContainer) throws -> GraphSnapshot {
        let context = container.newContext()
        let id = try globalIDs(of: container)
        var snapshot = GraphSnapshot()
        for note in try context.fetch(FetchRequest<SNote>()) {
            snapshot.notes[id(note)] = NoteValues(title: note.title, body: note.body, count: note.count, score: note.score, due: note.due,
                                                  folder: note.folder.map(id), labels: note.labels.map(id).sorted())
        }
        for folder in try context.fetch(FetchRequest<SFolder>()) {
            snapshot.folders[id(folder)] = FolderValues(name: folder.name, notes: folder.notes.map(id), pinned: folder.pinned.map(id))
        }
        for label in try context.fetch(FetchRequest<SLabel>()) { snapshot.labels[id(label)] = label.name }
        return snapshot
    }
}
