import Dispatch
import Foundation
import GRDB
import PersistKit

// MARK: - Shared

/// A value handed between the benchmark's threads.
final class Shared<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only read and written while holding `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func update<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }

    var current: Value { update { $0 } }
}

/// Runs `body` (async) to completion from synchronous code: the benchmark's rounds are
/// synchronous, the tasks they start are not.
func waitFor<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let result = Shared<Result<T, Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let outcome: Result<T, Error>
        do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        result.update { $0 = outcome }
        done.signal()
    }
    done.wait()
    guard let outcome = result.current else { throw BenchError("an async round ended without a result") }
    return try outcome.get()
}

/// The page the `read-during-write` fetches read: the first 100 tasks in primary-key order.
/// Its cost does not grow with the rows the save adds (a sorted page would sort them all once
/// the save committed), so the slowest fetch shows waiting, not a larger query.
private let pageSize = 100

/// What one `read-during-write` round measured: the save, and the fetches that started
/// while it ran.
struct ReadDuringWriteSample {
    var saveMilliseconds: Double
    var fetchMilliseconds: [Double]

    /// The slowest fetch as a fraction of the save (1 when no fetch finished during it: the
    /// fetches waited for the save).
    var fraction: Double {
        guard let slowest = fetchMilliseconds.max(), saveMilliseconds > 0 else { return 1 }
        return slowest / saveMilliseconds
    }
}

/// Runs `fetch` over and over on another thread while `save` runs here; keeps the durations of
/// the fetches that started after the save began and before it ended.
func measureReadDuringWrite(prepareReader: @escaping @Sendable () throws -> (@Sendable () throws -> Int),
                            save: () throws -> Void) throws -> ReadDuringWriteSample {
    let state = Shared((saving: false, finished: false, fetches: [(start: UInt64, end: UInt64)](), error: String?.none))
    let readerDone = DispatchSemaphore(value: 0), readerReady = DispatchSemaphore(value: 0)
    Thread {
        defer { readerDone.signal() }
        do {
            let fetch = try prepareReader()
            _ = try fetch()   // warm: statements prepared, pages cached
            readerReady.signal()
            while !state.current.saving { usleep(50) }
            while !state.current.finished {
                let start = now()
                _ = try fetch()
                let end = now()
                state.update { $0.fetches.append((start, end)) }
            }
        } catch {
            state.update { $0.error = "\(error)" }
            readerReady.signal()
        }
    }.start()
    readerReady.wait()
    state.update { $0.saving = true }
    let saveStart = now()
    try save()
    let saveEnd = now()
    state.update { $0.finished = true }
    readerDone.wait()
    let final = state.current
    if let error = final.error { throw BenchError("read-during-write reader: \(error)") }
    let during = final.fetches.filter { $0.start >= saveStart && $0.start < saveEnd }
    return ReadDuringWriteSample(saveMilliseconds: ms(saveStart, saveEnd), fetchMilliseconds: during.map { ms($0.start, $0.end) })
}

/// Logs one variant's read-during-write rounds: the medians behind the fractions.
private func logReadDuringWrite(_ label: String, _ samples: [ReadDuringWriteSample]) {
    let saves = samples.map(\.saveMilliseconds), slowest = samples.map { $0.fetchMilliseconds.max() ?? .nan }
    let counts = samples.map(\.fetchMilliseconds.count)
    log("  \(label): save \(formatNumber(median(saves) ?? 0)) ms, slowest fetch during it \(formatNumber(median(slowest) ?? 0)) ms, "
        + "fetches during a save: \(counts.map(String.init).joined(separator: "/"))")
}

// MARK: - read-during-write

/// PersistKit: a context saves `saveCount` new objects while another context, on another
/// thread, fetches a page of the tasks already stored, again and again.
func persistKitReadDuringWrite(_ env: Environment) throws -> Subject {
    let existing = Array(env.tasks.prefix(max(1, env.tasks.count / 10)))
    let saved = DataSet.tasks(count: env.config.readDuringWriteCount)
    var samples: [ReadDuringWriteSample] = []
    return Subject(.persistkit, round: { round in
        let url = try env.directories.newStoreURL("persistkit-read-during-write")
        defer { env.directories.remove(url) }
        let container = try PersistKitBench.populatedContainer(url, model: env.model, tasks: existing)
        let writer = container.newContext()
        PersistKitBench.insert(saved, into: writer)
        let sample = try measureReadDuringWrite(prepareReader: {
            return {
                var request = PersistKitBench.allRequest
                request.fetchLimit = pageSize
                return try container.newContext().fetch(request).count
            }
        }, save: { try writer.save() })
        if round > 0 { samples.append(sample) }
        let count = try container.newContext().count(for: PersistKitBench.allRequest)
        return ([sample.fraction], "\(count)")
    }, teardown: { logReadDuringWrite("PersistKit", samples) })
}

/// GRDB's `DatabasePool`: one write transaction inserts `saveCount` rows while `read`s on
/// another thread fetch a page, again and again.
func grdbReadDuringWrite(_ env: Environment) throws -> Subject {
    let existing = Array(env.tasks.prefix(max(1, env.tasks.count / 10)))
    let saved = DataSet.tasks(count: env.config.readDuringWriteCount)
    var samples: [ReadDuringWriteSample] = []
    return Subject(.grdb, round: { round in
        let url = try env.directories.newStoreURL("grdb-read-during-write")
        defer { env.directories.remove(url) }
        try RawDatabase.populate(url: url, tasks: existing)
        let pool = try openGRDBPool(url)
        let sample = try measureReadDuringWrite(prepareReader: {
            return {
                try pool.read { db in
                    try FastTask.fetchAll(db.cachedStatement(sql: "SELECT \(PlainSQL.columns) FROM task ORDER BY id LIMIT \(pageSize)")).count
                }
            }
        }, save: {
            try pool.write { db in
                let statement = try db.cachedStatement(sql: RawDatabase.insertSQL)
                for data in saved {
                    statement.setUncheckedArguments([data.name, data.notes, data.due, data.isComplete])
                    try statement.execute()
                }
            }
        })
        if round > 0 { samples.append(sample) }
        let count = try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM task") ?? 0 }
        try pool.close()
        return ([sample.fraction], "\(count)")
    }, teardown: { logReadDuringWrite("GRDB DatabasePool", samples) })
}

// MARK: - parallel-read

/// How many tasks fetch at once in `parallel-read`, and how many fetches each round makes.
private let parallelTasks = 4

/// Milliseconds of CPU this process has used (user and system, every thread).
private func cpuMilliseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func milliseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000 }
    return milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime)
}

/// One `parallel-read` round: wall and CPU milliseconds of the fetches made by one task, then
/// by `parallelTasks` tasks at once.
struct ParallelReadSample {
    var oneWall: Double, oneCPU: Double, fourWall: Double, fourCPU: Double

    /// The throughput of the tasks together over one task's.
    var speedup: Double { oneWall / fourWall }
}

/// Times `parallelTasks` fetches made one after another by one task, then the same number made
/// by `parallelTasks` tasks at once.
private func parallelReadRound(_ fetch: @escaping @Sendable () async throws -> Int) throws -> (ParallelReadSample, check: String) {
    let (oneWall, oneCPU, alone) = try waitFor {
        let start = now(), cpu = cpuMilliseconds()
        var total = 0
        for _ in 0..<parallelTasks { total += try await fetch() }
        return (ms(start, now()), cpuMilliseconds() - cpu, total)
    }
    let (fourWall, fourCPU, together) = try waitFor {
        let start = now(), cpu = cpuMilliseconds()
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<parallelTasks { group.addTask { try await fetch() } }
            return try await group.reduce(0, +)
        }
        return (ms(start, now()), cpuMilliseconds() - cpu, total)
    }
    guard alone == together else { throw BenchError("parallel-read: \(alone) rows alone, \(together) together") }
    return (ParallelReadSample(oneWall: oneWall, oneCPU: oneCPU, fourWall: fourWall, fourCPU: fourCPU), "\(alone)")
}

/// Logs one variant's parallel-read rounds: on a busy machine the speedup says little, but
/// how many cores the tasks kept busy, and the CPU each fetch took, say whether they got in
/// each other's way.
private func logParallelRead(_ label: String, _ samples: [ParallelReadSample]) {
    func med(_ values: [Double]) -> String { formatNumber(median(values) ?? 0) }
    log("  \(label): 1 task \(med(samples.map(\.oneWall))) ms (CPU \(med(samples.map(\.oneCPU))) ms), "
        + "\(parallelTasks) tasks \(med(samples.map(\.fourWall))) ms (CPU \(med(samples.map(\.fourCPU))) ms, "
        + "\(String(format: "%.2f", median(samples.map { $0.fourCPU / $0.fourWall }) ?? 0)) cores busy)")
}

/// PersistKit: `performBackgroundTask` fetches (the substring search of `fetch-predicate`,
/// every attribute read), one task at a time, then four at once.
func persistKitParallelRead(_ env: Environment) throws -> Subject {
    let url = try env.directories.newStoreURL("persistkit-parallel-read")
    let container = try PersistKitBench.populatedContainer(url, model: env.model, tasks: env.tasks)
    var samples: [ParallelReadSample] = []
    return Subject(.persistkit, round: { round in
        let result = try parallelReadRound {
            try await container.performBackgroundTask { context in
                var digest = Digest()
                for task in try context.fetch(PersistKitBench.predicateRequest) { digest.add(task) }
                return digest.count
            }
        }
        if round > 0 { samples.append(result.0) }
        return ([result.0.speedup], result.check)
    }, teardown: { logParallelRead("PersistKit", samples); env.directories.remove(url) })
}

/// GRDB's `DatabasePool`: the same search through `read`, one task at a time, then four at once.
func grdbParallelRead(_ env: Environment) throws -> Subject {
    let url = try env.directories.newStoreURL("grdb-parallel-read")
    try RawDatabase.populate(url: url, tasks: env.tasks)
    let pool = try openGRDBPool(url)
    var samples: [ParallelReadSample] = []
    return Subject(.grdb, round: { round in
        let result = try parallelReadRound {
            try await pool.read { db in
                var digest = Digest()
                let statement = try db.cachedStatement(sql: PlainSQL.fetchPredicate)
                for row in try FastTask.fetchAll(statement, arguments: [PlainSQL.substringPattern]) { digest.add(row) }
                return digest.count
            }
        }
        if round > 0 { samples.append(result.0) }
        return ([result.0.speedup], result.check)
    }, teardown: { logParallelRead("GRDB DatabasePool", samples); try? pool.close(); env.directories.remove(url) })
}

/// Opens a GRDB `DatabasePool` on `url` (WAL) with `synchronous=FULL`, like every variant.
func openGRDBPool(_ url: URL) throws -> DatabasePool {
    var config = Configuration()
    config.prepareDatabase { db in
        try db.execute(sql: "PRAGMA synchronous = FULL")
    }
    return try DatabasePool(path: url.path, configuration: config)
}
