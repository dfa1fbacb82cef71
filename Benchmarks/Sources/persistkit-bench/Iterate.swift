import Foundation
import GRDB
import PersistKit

// `iterate-1m`: peak memory of a run that iterates every row of a large table. VmHWM cannot be
// reset, so each run is a child process of this binary (`--child iterate --variant V --db PATH`)
// that reports its time and its VmHWM as one line of JSON. PersistKit iterates a store of its own
// schema holding the same rows, with `fetchBatched` (batch size 500).

/// The child's side: iterates every row of `url` with `variant`, prints `{"ms", "peak_mb", "check"}`.
func runIterateChild(variant: Variant, url: URL) throws {
    var digest = Digest()
    let elapsed: Double
    switch variant {
    case .raw:
        let db = try RawDatabase(url: url)
        let statement = try db.prepare(PlainSQL.iterate)
        elapsed = try time {
            while try statement.step() { digest.add(statement.plainTask()) }
        }
    case .grdb:
        let dbQueue = try openGRDB(url)
        elapsed = try time {
            try dbQueue.read { db in
                let rows = try FastTask.fetchCursor(db.cachedStatement(sql: PlainSQL.iterate))
                while let row = try rows.next() { digest.add(row) }
            }
        }
    case .grdbRecords:
        let dbQueue = try openGRDB(url)
        elapsed = try time {
            try dbQueue.read { db in
                let records = try TaskRecord.fetchCursor(db)
                while let record = try records.next() { digest.add(record) }
            }
        }
    case .persistkit:
        // A batched fetch in primary-key order: the keys up front, objects 500 at a time,
        // every attribute read, earlier batches let go.
        let container = try PersistKitBench.openContainer(url, model: try PersistKitBench.makeModel())
        let context = container.newContext()
        var request = PersistKitBench.allRequest
        request.fetchBatchSize = iterateBatchSize
        elapsed = try time {
            let tasks = try context.fetchBatched(request)
            for task in tasks { digest.add(task) }
        }
    }
    let peak = peakResidentMegabytes() ?? -1
    print("{\"ms\": \(elapsed), \"peak_mb\": \(peak), \"check\": \"\(digest.count)/\(digest.value)\"}")
}

/// The batch size PersistKit's `iterate-1m` fetches with.
let iterateBatchSize = 500

/// A PersistKit store holding `tasks` (the plain store's rows, the same keys), written with SQL
/// into the schema PersistKit made: setup, not timed, and no million objects in this process.
private func populatePersistKitStore(_ url: URL, tasks: [TaskData], model: ManagedObjectModel) throws {
    _ = try PersistKitBench.openContainer(url, model: model)
    let db = try RawDatabase(url: url)
    let insert = try db.prepare("INSERT INTO \"Task\" (\"_pk\", \"_version\", \"name\", \"notes\", \"due\", \"isComplete\") "
                                + "VALUES (?, 1, ?, ?, ?, ?)")
    try db.execute("BEGIN IMMEDIATE")
    for (index, task) in tasks.enumerated() {
        insert.reset()
        insert.bind(Int64(index + 1), at: 1)
        insert.bind(task.name, at: 2)
        insert.bind(task.notes, at: 3)
        // PersistKit stores a Date as seconds since 2001: convert as `Date` does.
        insert.bind(task.due.map { Date(timeIntervalSince1970: $0).timeIntervalSinceReferenceDate }, at: 4)
        insert.bind(task.isComplete, at: 5)
        try insert.stepDone()
    }
    try db.execute("COMMIT")
    try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
}

/// Writes the store `iterate-1m` iterates (`--child make-iterate-store --db PATH`, PersistKit's
/// schema with `--variant persistkit`, else the plain one), to profile one child by hand.
func makeIterateStore(_ url: URL, count: Int, persistKit: Bool) throws {
    let tasks = DataSet.tasks(count: count, seed: 1_000_000)
    if persistKit {
        try populatePersistKitStore(url, tasks: tasks, model: try PersistKitBench.makeModel())
    } else {
        try RawDatabase.populate(url: url, tasks: tasks)
        try RawDatabase(url: url).execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}

/// The path of this executable, to start children.
private func executableURL() -> URL {
    if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        return URL(fileURLWithPath: path)
    }
    return Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
}

/// Runs one child and parses its report.
private func runChild(variant: Variant, url: URL) throws -> (ms: Double, peak: Double, check: String) {
    let process = Process()
    process.executableURL = executableURL()
    process.arguments = ["--child", "iterate", "--variant", variant.rawValue, "--db", url.path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
          let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
          let ms = object["ms"] as? Double, let peak = object["peak_mb"] as? Double,
          let check = object["check"] as? String else {
        throw BenchError("iterate child \(variant.rawValue) failed (status \(process.terminationStatus)): "
                         + String(decoding: data, as: UTF8.self))
    }
    return (ms, peak, check)
}

/// The parent's side: one store of `config.iterateCount` rows, then child runs interleaved.
func runIterate(env: Environment, variants: [Variant]) throws -> ResultRow {
    let count = env.config.iterateCount
    let url = try env.directories.newStoreURL("iterate")
    let persistKitURL = try env.directories.newStoreURL("iterate-persistkit")
    defer {
        env.directories.remove(url)
        env.directories.remove(persistKitURL)
    }
    do {
        let tasks = count == env.tasks.count ? env.tasks : DataSet.tasks(count: count, seed: 1_000_000)
        try RawDatabase.populate(url: url, tasks: tasks)
        let db = try RawDatabase(url: url)
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        if variants.contains(.persistkit) { try populatePersistKitStore(persistKitURL, tasks: tasks, model: env.model) }
    }
    final class Peaks { var values: [Variant: [Double]] = [:] }
    let peaks = Peaks()
    let subjects = variants.map { variant in
        Subject(variant) { round in
            let result = try runChild(variant: variant, url: variant == .persistkit ? persistKitURL : url)
            if round > 0 { peaks.values[variant, default: []].append(result.peak) }
            return ([result.ms], result.check)
        }
    }
    var row = try measure(.iterate, n: count, subjects: subjects, rounds: env.config.rounds)
    for (variant, values) in peaks.values { row.peakMegabytes[variant] = median(values) }
    return row
}
