import Foundation
import XCTest

/// A PostgreSQL server of the test's own: Debian's binaries, `initdb` in a temporary
/// directory, `pg_ctl` on a free loopback port, stopped (and its files removed) by ``stop()``
/// and, for a server a test left running, when the test process exits.
///
/// Running as root (CI, this machine) the server runs as the `postgres` user through
/// `runuser`, since `initdb` refuses root. Without the binaries a test skips, saying why.
final class TestPostgres: @unchecked Sendable {
    // @unchecked Sendable: `isRunning` only changes holding `lock`; the rest are lets.
    let directory: URL
    let port: Int
    let binaries: URL
    private let lock = NSLock()
    private var isRunning = false

    /// Where Debian puts the server's binaries (the newest version there).
    static var binaryDirectory: URL? {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            let bin = root.appendingPathComponent(version).appendingPathComponent("bin")
            if FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("pg_ctl").path) { return bin }
        }
        return nil
    }

    private static let running = NSLock()
    nonisolated(unsafe) private static var servers: [ObjectIdentifier: TestPostgres] = [:]   // guarded by `running`
    nonisolated(unsafe) private static var registeredExit = false                             // guarded by `running`

    /// Starts a new server, or skips the test when PostgreSQL is not installed.
    static func start(ssl: (certificate: URL, key: URL)? = nil) throws -> TestPostgres {
        guard let binaries = binaryDirectory else {
            print("NOTICE: PostgreSQL's server binaries (/usr/lib/postgresql/*/bin) are not installed: skipping the sync tests "
                  + "(apt-get install postgresql)")
            throw XCTSkip("PostgreSQL server binaries are not installed")
        }
        let server = try TestPostgres(binaries: binaries)
        try server.initialize(ssl: ssl)
        try server.launch()
        running.lock()
        servers[ObjectIdentifier(server)] = server
        if !registeredExit {
            registeredExit = true
            atexit { TestPostgres.stopAll() }
        }
        running.unlock()
        return server
    }

    private init(binaries: URL) throws {
        self.binaries = binaries
        directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("persistkit-pg-" + UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try Self.freePort()
        if getuid() == 0 {
            try Self.run("/bin/chown", ["postgres:postgres", directory.path])
        }
    }

    var dataDirectory: String { directory.appendingPathComponent("data").path }
    var logFile: String { directory.appendingPathComponent("server.log").path }

    /// A URL for `user` (trust authentication on loopback) and `database`.
    func url(user: String = "postgres", database: String = "postgres", sslmode: String = "disable") -> String {
        "postgres://\(user)@127.0.0.1:\(port)/\(database)?sslmode=\(sslmode)"
    }

    private func initialize(ssl: (certificate: URL, key: URL)?) throws {
        try asServerUser(binaries.appendingPathComponent("initdb").path,
                         ["-D", dataDirectory, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--locale=C"])
        var settings = """
            listen_addresses = '127.0.0.1'
            port = \(port)
            unix_socket_directories = '\(directory.path)'
            fsync = off
            synchronous_commit = off
            full_page_writes = off
            max_connections = 200
            shared_buffers = 32MB

            """
        if let ssl {
            let certificate = directory.appendingPathComponent("server.crt"), key = directory.appendingPathComponent("server.key")
            try FileManager.default.copyItem(at: ssl.certificate, to: certificate)
            try FileManager.default.copyItem(at: ssl.key, to: key)
            if getuid() == 0 { try Self.run("/bin/chown", ["postgres:postgres", certificate.path, key.path]) }
            try Self.run("/bin/chmod", ["600", key.path])
            settings += "ssl = on\nssl_cert_file = '\(certificate.path)'\nssl_key_file = '\(key.path)'\n"
        }
        let configuration = URL(fileURLWithPath: dataDirectory).appendingPathComponent("postgresql.conf")
        let handle = try FileHandle(forWritingTo: configuration)
        handle.seekToEndOfFile()
        handle.write(Data(settings.utf8))
        try handle.close()
    }

    /// Starts the server (again, after ``kill()`` or ``stopServer()``), waiting until it accepts connections.
    func launch() throws {
        try asServerUser(binaries.appendingPathComponent("pg_ctl").path, ["-D", dataDirectory, "-l", logFile, "-w", "-t", "60", "start"])
        lock.lock()
        isRunning = true
        lock.unlock()
    }

    /// Stops the server now (fast shutdown: connections are cut), keeping its files.
    func stopServer() throws {
        lock.lock()
        defer { lock.unlock() }
        guard isRunning else { return }
        isRunning = false
        try asServerUser(binaries.appendingPathComponent("pg_ctl").path, ["-D", dataDirectory, "-m", "fast", "-w", "-t", "60", "stop"])
    }

    /// Stops the server and removes its files.
    func stop() {
        try? stopServer()
        try? FileManager.default.removeItem(at: directory)
        Self.running.lock()
        Self.servers[ObjectIdentifier(self)] = nil
        Self.running.unlock()
    }

    private static func stopAll() {
        running.lock()
        let all = Array(servers.values)
        running.unlock()
        for server in all { server.stop() }
    }

    /// Runs a command as the server's user (`postgres` when we are root).
    private func asServerUser(_ path: String, _ arguments: [String]) throws {
        if getuid() == 0 {
            try Self.run("/usr/sbin/runuser", ["-u", "postgres", "--", path] + arguments)
        } else {
            try Self.run(path, arguments)
        }
    }

    /// Runs a program to its end (`posix_spawn` and `waitpid`: Foundation's `Process` does
    /// not always reap a child started off the main thread); its output (standard output and
    /// error, through a file: a server it starts keeps inherited pipes open) is returned, or
    /// thrown when it fails.
    @discardableResult
    static func run(_ path: String, _ arguments: [String]) throws -> String {
        let outputPath = NSTemporaryDirectory() + "pg-run-" + UUID().uuidString
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw NSError(domain: "TestPostgres", code: Int(spawned), userInfo: [NSLocalizedDescriptionKey: "cannot start \(path)"])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exited = (status & 0x7f) == 0, code = (status >> 8) & 0xff
        guard exited && code == 0 else {
            throw NSError(domain: "TestPostgres", code: Int(code),
                          userInfo: [NSLocalizedDescriptionKey: "\(path) \(arguments.joined(separator: " ")) failed: \(text)"])
        }
        return text
    }

    /// A loopback port nothing listens on now.
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw NSError(domain: "TestPostgres", code: 1) }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw NSError(domain: "TestPostgres", code: 2) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw NSError(domain: "TestPostgres", code: 3) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs SQL with `psql` as `user` (the tests' raw SQL, beside PersistKitSync's client).
    /// Returns psql's output (unaligned, tuples only); throws with psql's error text.
    @discardableResult
    func psql(_ sql: String, user: String = "postgres", database: String = "postgres") throws -> String {
        try Self.run(binaries.appendingPathComponent("psql").path,
                     ["-h", "127.0.0.1", "-p", String(port), "-U", user, "-d", database, "-v", "ON_ERROR_STOP=1", "-At", "-q", "-c", sql])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
