import Foundation

/// A PostgreSQL server of the benchmark's own: Debian's binaries, `initdb` in a temporary
/// directory, on a free loopback port, stopped and removed by ``stop()``. As root, the server
/// runs as the `postgres` user (`initdb` refuses root).
final class BenchPostgres: @unchecked Sendable {
    // @unchecked Sendable: every property is a let.
    let directory: String
    let port: Int
    let binaries: String

    /// A server, or nil when PostgreSQL is not installed (or will not start).
    static func start() -> BenchPostgres? {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }
        guard let bin = versions.map({ "\(root)/\($0)/bin" }).first(where: { FileManager.default.isExecutableFile(atPath: $0 + "/pg_ctl") })
        else { return nil }
        let server = BenchPostgres(binaries: bin, port: 20_000 + Int(getpid() % 20_000))
        do {
            try server.launch()
            return server
        } catch {
            log("sync: PostgreSQL did not start: \(error)")
            server.stop()
            return nil
        }
    }

    private init(binaries: String, port: Int) {
        self.binaries = binaries
        self.port = port
        directory = "/tmp/persistkit-bench-pg-" + UUID().uuidString.prefix(8)
    }

    var url: String { "postgres://postgres@127.0.0.1:\(port)/postgres?sslmode=disable" }

    private func launch() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if getuid() == 0 { try run("/bin/chown", ["postgres:postgres", directory]) }
        try asServerUser("initdb", ["-D", directory + "/data", "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--locale=C"])
        let settings = "listen_addresses = '127.0.0.1'\nport = \(port)\nunix_socket_directories = '\(directory)'\nmax_connections = 300\n"
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: directory + "/data/postgresql.conf"))
        handle.seekToEndOfFile()
        handle.write(Data(settings.utf8))
        try handle.close()
        try asServerUser("pg_ctl", ["-D", directory + "/data", "-l", directory + "/server.log", "-w", "-t", "60", "start"])
    }

    func stop() {
        try? asServerUser("pg_ctl", ["-D", directory + "/data", "-m", "fast", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// CPU seconds the server has used so far: the postmaster's own and its children's (those
    /// that ended, and those still running).
    func cpuSeconds() -> Double {
        guard let pidText = try? String(contentsOfFile: directory + "/data/postmaster.pid", encoding: .utf8),
              let pid = pidText.split(separator: "\n").first.flatMap({ Int($0) }) else { return 0 }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        func fields(_ process: Int) -> [Substring]? {
            guard let stat = try? String(contentsOfFile: "/proc/\(process)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            return stat[stat.index(after: close)...].split(separator: " ")
        }
        var total = 0.0
        // After the ")" : state ppid ... utime(12) stime(13) cutime(14) cstime(15), counted from state = 1.
        if let own = fields(pid) { total += [11, 12, 13, 14].compactMap { Double(own[$0]) }.reduce(0, +) }
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let child = Int(entry), let values = fields(child), Int(values[1]) == pid else { continue }
            total += [11, 12].compactMap { Double(values[$0]) }.reduce(0, +)
        }
        return total / ticks
    }

    private func asServerUser(_ program: String, _ arguments: [String]) throws {
        if getuid() == 0 {
            try run("/usr/sbin/runuser", ["-u", "postgres", "--", binaries + "/" + program] + arguments)
        } else {
            try run(binaries + "/" + program, arguments)
        }
    }

    /// Runs a program to its end (posix_spawn: the server it may start keeps no pipe of ours).
    private func run(_ path: String, _ arguments: [String]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let words: [String] = [path] + arguments
        let argv = words.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { throw BenchError("cannot start \(path)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else { throw BenchError("\(path) \(arguments.joined(separator: " ")) failed (status \(status))") }
    }
}
