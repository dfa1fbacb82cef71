import Foundation
import GRDB

// `iterate-1m`: peak memory of a run that iterates every row of a large table. VmHWM cannot be
// reset, so each run is a child process of this binary (`--child iterate --variant V --db PATH`)
// that reports its time and its VmHWM as one line of JSON.

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
        throw BenchError("PersistKit has no batched fetching yet: iterate-1m does not apply")
    }
    let peak = peakResidentMegabytes() ?? -1
    print("{\"ms\": \(elapsed), \"peak_mb\": \(peak), \"check\": \"\(digest.count)/\(digest.value)\"}")
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
    defer { env.directories.remove(url) }
    do {
        let tasks = count == env.tasks.count ? env.tasks : DataSet.tasks(count: count, seed: 1_000_000)
        try RawDatabase.populate(url: url, tasks: tasks)
        let db = try RawDatabase(url: url)
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
    final class Peaks { var values: [Variant: [Double]] = [:] }
    let peaks = Peaks()
    let subjects = variants.filter { $0 != .persistkit }.map { variant in
        Subject(variant) { round in
            let result = try runChild(variant: variant, url: url)
            if round > 0 { peaks.values[variant, default: []].append(result.peak) }
            return ([result.ms], result.check)
        }
    }
    var row = try measure(.iterate, n: count, subjects: subjects, rounds: env.config.rounds)
    for (variant, values) in peaks.values { row.peakMegabytes[variant] = median(values) }
    return row
}
