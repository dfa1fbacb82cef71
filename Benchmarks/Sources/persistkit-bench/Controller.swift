import Foundation
import GRDB
import PersistKit

// MARK: - PersistKit: FetchedResultsController

/// What the controller's observer saw last.
private final class ControllerProbe {
    var deliveredAt: UInt64 = 0
    var deliveries = 0
    var changedRows = 0
}

/// `count` distinct indices below `limit`.
private func distinctIndices(_ count: Int, below limit: Int, using rng: inout SplitMix64) -> [Int] {
    var seen = Set<Int>()
    var result: [Int] = []
    while result.count < min(count, limit) {
        let index = Int.random(in: 0..<limit, using: &rng)
        if seen.insert(index).inserted { result.append(index) }
    }
    return result
}

private func randomDue(using rng: inout SplitMix64) -> Double {
    DataSet.dueBase + Double(Int.random(in: 0..<Int(DataSet.dueSpread * 1000), using: &rng)) / 1000
}

/// A controller over every task, in two sections (`isComplete`), sorted by due date: each
/// sample is the time from changing objects' due dates to the observer holding the ChangeSet
/// (`processPendingChanges()` delivers it synchronously).
func persistKitController(_ env: Environment, batch: Bool) throws -> Subject {
    let url = try env.directories.newStoreURL(batch ? "persistkit-controller-batch" : "persistkit-controller")
    let container = try PersistKitBench.populatedContainer(url, model: env.model, tasks: env.tasks)
    let context = container.newContext()
    let controller = FetchedResultsController(fetchRequest: PersistKitBench.sortedRequest, context: context,
                                              sectionNameKeyPath: \BenchTask.isComplete)
    try controller.performFetch()
    if !batch && env.config.comparesPerformFetch { try comparePerformFetch(container) }
    let objects = controller.fetchedObjects
    guard objects.count == env.tasks.count, controller.sections.count == 2 else {
        throw BenchError("controller fetched \(objects.count) objects in \(controller.sections.count) sections")
    }
    let probe = ControllerProbe()
    let token = controller.observe { change in
        probe.deliveredAt = now()
        probe.deliveries += 1
        probe.changedRows = change.movedRows.count + change.updatedRows.count
    }
    var rng = SplitMix64(seed: batch ? 1_000 : 1)
    let changesPerRound = batch ? 1 : env.config.oneChangesPerRoundPersistKit

    func deliver(_ indices: [Int]) throws -> Double {
        let dues = indices.map { _ in Date(timeIntervalSince1970: randomDue(using: &rng)) }
        let before = probe.deliveries
        let start = now()
        _ = time {   // the sample is start to delivery; `time` marks the region for profilers
            for (index, due) in zip(indices, dues) { objects[index].due = due }
            context.processPendingChanges()
        }
        guard probe.deliveries == before + 1 else {
            throw BenchError("the controller delivered \(probe.deliveries - before) change sets for one batch")
        }
        guard probe.changedRows == indices.count else {
            throw BenchError("the controller reported \(probe.changedRows) moved/updated rows for \(indices.count) changes")
        }
        return ms(start, probe.deliveredAt)
    }

    return Subject(.persistkit, round: { _ in
        var samples: [Double] = []
        for _ in 0..<changesPerRound {
            let count = batch ? env.config.batchChanges : 1
            samples.append(try deliver(distinctIndices(count, below: objects.count, using: &rng)))
        }
        let total = controller.sections.reduce(0) { $0 + $1.numberOfObjects }
        guard total == objects.count else { throw BenchError("the controller holds \(total) objects, not \(objects.count)") }
        return (samples, "")
    }, teardown: {
        token.cancel()
        _ = container
        env.directories.remove(url)
    })
}

/// Issue goal: `performFetch` within 1.2x of a plain fetch of the same request. Each is timed in
/// a fresh context (rows become new objects both ways), interleaved, median of five.
private func comparePerformFetch(_ container: PersistentContainer) throws {
    var fetches: [Double] = [], performs: [Double] = []
    // Each in its own scope, so one's 100,000 objects are gone before the other runs; the
    // order alternates.
    func plainFetch() throws {
        let context = container.newContext()
        let start = now()
        _ = try context.fetch(PersistKitBench.sortedRequest)
        fetches.append(ms(start, now()))
    }
    func controllerFetch() throws {
        let controller = FetchedResultsController(fetchRequest: PersistKitBench.sortedRequest, context: container.newContext(),
                                                  sectionNameKeyPath: \BenchTask.isComplete)
        let start = now()
        try controller.performFetch()
        performs.append(ms(start, now()))
    }
    for round in 0..<5 {
        if round % 2 == 0 {
            try plainFetch()
            try controllerFetch()
        } else {
            try controllerFetch()
            try plainFetch()
        }
    }
    let fetch = fetches.sorted()[2], perform = performs.sorted()[2]
    log(String(format: "  controller performFetch: %.1f ms, plain fetch: %.1f ms (%.2fx; goal <= 1.2x)",
                  perform, fetch, perform / fetch))
}

// MARK: - GRDB: ValueObservation

/// Values delivered by a ValueObservation, handed from its queue to the benchmark's thread.
private final class Deliveries: @unchecked Sendable {
    // `lock` guards `deliveredAt`, `rowCount` and `error`; `semaphore` counts deliveries.
    private let lock = NSLock()
    private let semaphore = DispatchSemaphore(value: 0)
    private var deliveredAt: UInt64 = 0
    private var rowCount = 0
    private var error: (any Error)?

    func deliver(rows: Int) {
        let at = now()
        lock.withLock {
            deliveredAt = at
            rowCount = rows
        }
        semaphore.signal()
    }

    func fail(_ error: any Error) {
        lock.withLock { self.error = error }
        semaphore.signal()
    }

    /// Waits for the next value: its delivery time and row count.
    func next() throws -> (at: UInt64, rows: Int) {
        guard semaphore.wait(timeout: .now() + 120) == .success else {
            throw BenchError("ValueObservation delivered nothing within 120 s")
        }
        return try lock.withLock {
            if let error { throw error }
            return (deliveredAt, rowCount)
        }
    }
}

/// GRDB's answer to a results controller: a `ValueObservation` of the same sorted request,
/// which refetches it after each write. Each sample runs from the write's start to the new
/// value's delivery.
func grdbObservation(_ env: Environment, records: Bool, batch: Bool) throws -> Subject {
    let url = try env.directories.newStoreURL(records ? "grdb-records-observation" : "grdb-observation")
    try RawDatabase.populate(url: url, tasks: env.tasks)
    let dbQueue = try openGRDB(url)
    let deliveries = Deliveries()
    let queue = DispatchQueue(label: "persistkit-bench.observation")
    let cancellable: AnyDatabaseCancellable
    if records {
        cancellable = ValueObservation
            .tracking { db in try TaskRecord.sorted.fetchAll(db) }
            .start(in: dbQueue, scheduling: .async(onQueue: queue),
                   onError: { deliveries.fail($0) }, onChange: { deliveries.deliver(rows: $0.count) })
    } else {
        cancellable = ValueObservation
            .tracking { db in try FastTask.fetchAll(db.cachedStatement(sql: PlainSQL.fetchAll)) }
            .start(in: dbQueue, scheduling: .async(onQueue: queue),
                   onError: { deliveries.fail($0) }, onChange: { deliveries.deliver(rows: $0.count) })
    }
    let initial = try deliveries.next()
    guard initial.rows == env.tasks.count else { throw BenchError("observation saw \(initial.rows) rows") }
    var rng = SplitMix64(seed: batch ? 1_000 : 1)
    let changesPerRound = batch ? 1 : env.config.oneChangesPerRoundGRDB
    let n = env.tasks.count

    return Subject(records ? .grdbRecords : .grdb, round: { _ in
        var samples: [Double] = []
        for _ in 0..<changesPerRound {
            let ids = distinctIndices(batch ? env.config.batchChanges : 1, below: n, using: &rng).map { Int64($0 + 1) }
            let dues = ids.map { _ in randomDue(using: &rng) }
            let start = now()
            try dbQueue.write { db in
                let statement = try db.cachedStatement(sql: PlainSQL.updateDue)
                for (id, due) in zip(ids, dues) {
                    statement.setUncheckedArguments([due, id])
                    try statement.execute()
                }
            }
            let delivered = try deliveries.next()
            guard delivered.rows == n else { throw BenchError("observation saw \(delivered.rows) rows") }
            samples.append(ms(start, delivered.at))
        }
        return (samples, "")
    }, teardown: {
        cancellable.cancel()
        try? dbQueue.close()
        env.directories.remove(url)
    })
}
