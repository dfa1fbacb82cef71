import Foundation
import PersistKit
import PersistKitSync
import PostgresNIO

/// The sync rows (issue 23): push and pull of 10,000 changed objects beside a plain `COPY` of
/// the same rows into PostgreSQL, the latency from a save on store A to its merge on store B
/// (both engines running continuously), and 50 stores of 200 changes each converging, with the
/// server's CPU time. Needs PostgreSQL's server binaries (Debian's `postgresql`); without them
/// the rows are skipped with a note.
final class SyncItem: ManagedObject {
    @Attribute var title = ""
    @Attribute var detail: String?
    @Attribute var count = 0
    @Attribute var due: Date?
    @Attribute var isDone = false
}

struct SyncBenchRow {
    let name: String
    let value: String
    let detail: String
}

func runSyncBench(quick: Bool) -> [SyncBenchRow]? {
    guard let server = BenchPostgres.start() else {
        log("sync: skipped (PostgreSQL's server binaries, /usr/lib/postgresql/*/bin, are not installed: apt-get install postgresql)")
        return nil
    }
    defer { server.stop() }
    let result = SyncBenchResult()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do {
            result.rows = try await syncRows(server: server, quick: quick)
        } catch {
            log("sync: failed: \(error)")
        }
        done.signal()
    }
    done.wait()
    return result.rows
}

/// The rows, handed from the benchmark's task to the caller.
private final class SyncBenchResult: @unchecked Sendable {
    // @unchecked Sendable: written by the task before the semaphore signals, read after.
    var rows: [SyncBenchRow]?
}

private func syncRows(server postgres: BenchPostgres, quick: Bool) async throws -> [SyncBenchRow] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("persistkit-sync-bench-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let model = try ManagedObjectModel(entities: [SyncItem.self])
    func container(_ name: String) throws -> PersistentContainer {
        try PersistentContainer(model: model, store: .sqlite(directory.appendingPathComponent(name + ".sqlite")))
    }
    let url = postgres.url
    let syncServer = try SyncServer(url: url)
    var rows: [SyncBenchRow] = []
    let count = quick ? 2_000 : 10_000

    // Push and pull.
    let a = try container("a"), b = try container("b")
    let engineA = SyncEngine(container: a, server: syncServer, space: "bench"), engineB = SyncEngine(container: b, server: syncServer, space: "bench")
    try await engineA.sync()
    try await engineB.sync()
    let context = a.newContext()
    for index in 0..<count {
        let item = SyncItem(context: context)
        item.title = "item \(index)"
        item.detail = index % 3 == 0 ? nil : "detail of item \(index)"
        item.count = index
        item.due = Date(timeIntervalSinceReferenceDate: Double(index) * 3_600)
    }
    try context.save()
    let copy = try await copyMilliseconds(url: url, rows: count)
    for (label, change) in [("new", { () throws in }), ("updated", { () throws in
        for item in try context.fetch(FetchRequest<SyncItem>()) { item.count += 1 }
        try context.save()
    })] as [(String, () throws -> Void)] {
        try change()
        let pushStart = now()
        let pushed = try await engineA.sync()
        let push = ms(pushStart, now())
        let pullStart = now()
        let pulled = try await engineB.sync()
        let pull = ms(pullStart, now())
        guard pushed.sent >= count, pulled.received >= count else { throw BenchError("sync moved \(pushed.sent) / \(pulled.received) of \(count)") }
        rows.append(SyncBenchRow(name: "push \(formatCount(count)) \(label) objects",
                                 value: String(format: "%.0f objects/s", Double(count) / push * 1000),
                                 detail: String(format: "%.0f ms; %.1fx a COPY of the same rows (%.0f ms)", push, push / copy, copy)))
        rows.append(SyncBenchRow(name: "pull \(formatCount(count)) \(label) objects",
                                 value: String(format: "%.0f objects/s", Double(count) / pull * 1000),
                                 detail: String(format: "%.0f ms; %.1fx a COPY of the same rows", pull, pull / copy)))
        log("  sync push/pull \(label): \(rows[rows.count - 2].detail); \(rows[rows.count - 1].detail)")
    }

    // Latency: a save on A to its merge on B, both engines running.
    let samples = quick ? 30 : 100
    let arrived = ArrivalClock()
    engineA.start()
    engineB.start { result in
        if case .success(let report) = result, report.received > 0 { arrived.mark() }
    }
    try await Task.sleep(nanoseconds: 500_000_000)
    var latencies: [Double] = []
    for index in 0..<samples {
        arrived.reset()
        let item = SyncItem(context: context)
        item.title = "latency \(index)"
        let saved = now()
        try context.save()
        let deadline = Date().addingTimeInterval(10)
        while arrived.time == nil && Date() < deadline { try await Task.sleep(nanoseconds: 200_000) }
        guard let time = arrived.time else { throw BenchError("a save on A did not reach B within 10 s") }
        latencies.append(ms(saved, time))
        try await Task.sleep(nanoseconds: 20_000_000)
    }
    await engineA.stop()
    await engineB.stop()
    latencies.sort()
    let median = latencies[latencies.count / 2], p99 = latencies[min(latencies.count - 1, Int(Double(latencies.count) * 0.99))]
    rows.append(SyncBenchRow(name: "save on A to merge on B (\(samples) saves)",
                             value: String(format: "median %.1f ms, p99 %.1f ms", median, p99),
                             detail: "goal median < 100 ms \(median < 100 ? "✓" : "✗"), p99 < 250 ms \(p99 < 250 ? "✓" : "✗")"))
    log("  sync latency: \(rows.last?.value ?? "")")

    // 50 stores × 200 changes.
    let storeCount = quick ? 10 : 50, changes = 200
    let fleet = try (0..<storeCount).map { try container("fleet\($0)") }
    let engines = fleet.map { SyncEngine(container: $0, server: syncServer, space: "fleet") }
    for (index, store) in fleet.enumerated() {
        let fleetContext = store.newContext()
        for change in 0..<changes {
            let item = SyncItem(context: fleetContext)
            item.title = "store \(index) change \(change)"
        }
        try fleetContext.save()
    }
    let cpuBefore = postgres.cpuSeconds()
    let start = now()
    var converged = false
    var rounds = 0
    while !converged && rounds < 5 {
        rounds += 1
        try await withThrowingTaskGroup(of: Void.self) { group in
            for engine in engines { group.addTask { try await engine.sync() } }
            try await group.waitForAll()
        }
        converged = try fleet.allSatisfy { try $0.newContext().count(for: FetchRequest<SyncItem>()) == storeCount * changes }
    }
    let elapsed = ms(start, now())
    let cpu = postgres.cpuSeconds() - cpuBefore
    guard converged else { throw BenchError("the fleet did not converge in 5 rounds") }
    rows.append(SyncBenchRow(name: "\(storeCount) stores × \(changes) changes to convergence",
                             value: String(format: "%.2f s", elapsed / 1000),
                             detail: String(format: "%d rounds of every store at once; server CPU %.2f s", rounds, cpu)))
    log("  sync fleet: \(rows.last?.value ?? ""), \(rows.last?.detail ?? "")")
    return rows
}

/// When B's engine last received something.
private final class ArrivalClock: @unchecked Sendable {
    // @unchecked Sendable: `arrival` is only touched holding `lock`.
    private let lock = NSLock()
    private var arrival: UInt64?

    func mark() {
        lock.lock()
        if arrival == nil { arrival = now() }
        lock.unlock()
    }

    func reset() {
        lock.lock()
        arrival = nil
        lock.unlock()
    }

    var time: UInt64? {
        lock.lock()
        defer { lock.unlock() }
        return arrival
    }
}

/// Milliseconds a `COPY` of `rows` rows shaped as the sync server's (a UUID, an entity, JSONB
/// keys and clocks, a sequence) into a plain table takes.
private func copyMilliseconds(url: String, rows: Int) async throws -> Double {
    let server = try SyncServer(url: url)
    let connection = try await PostgresConnection.connect(configuration: server.connection, id: 9, logger: Logger(label: "bench"))
    defer { Task { try? await connection.close() } }
    try await connection.query("CREATE TABLE IF NOT EXISTS copy_reference (space text, id text, entity text, seq bigint, fields jsonb, clocks jsonb, PRIMARY KEY (space, id))", logger: Logger(label: "bench"))
    try await connection.query("TRUNCATE copy_reference", logger: Logger(label: "bench"))
    var text = ""
    for index in 0..<rows {
        let fields = #"{"count": \#(index), "detail": "detail of item \#(index)", "due": \#(Double(index) * 3_600), "isDone": 0, "title": "item \#(index)"}"#
        let clocks = #"{"count": "0000018c2b5e3f10:0000:c", "detail": "0000018c2b5e3f10:0000:c", "due": "0000018c2b5e3f10:0000:c", "isDone": "0000018c2b5e3f10:0000:c", "title": "0000018c2b5e3f10:0000:c"}"#
        text += "bench\t\(UUID().uuidString.lowercased())\tSyncItem\t\(index)\t\(fields)\t\(clocks)\n"
    }
    let start = now()
    try await connection.copyFrom(table: "copy_reference", columns: ["space", "id", "entity", "seq", "fields", "clocks"],
                                  logger: Logger(label: "bench")) { writer in
        try await writer.write(ByteBuffer(string: text))
    }
    return ms(start, now())
}

private func formatCount(_ count: Int) -> String {
    let formatter = NumberFormatter()
    formatter.numberStyle = .decimal
    formatter.groupingSeparator = ","
    return formatter.string(from: NSNumber(value: count)) ?? String(count)
}

/// The sync rows as a markdown table.
func syncTable(_ rows: [SyncBenchRow]) -> String {
    (["| sync | result | detail |", "| --- | ---: | --- |"] + rows.map { "| \($0.name) | \($0.value) | \($0.detail) |" })
        .joined(separator: "\n")
}
