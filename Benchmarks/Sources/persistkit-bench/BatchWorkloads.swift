import CSQLiteBench
import Foundation
import GRDB
import PersistKit

// The batch requests, beside the same work written by hand:
// `batch-insert`: insert the generated tasks into an empty store in one request (raw SQLite:
//   one prepared INSERT in a transaction, the `insert` workload; GRDB: a cached statement).
// `batch-update`: set the due date of every open task (about 70% of them) in one request
//   (raw: one UPDATE ... WHERE isComplete = 0 in a transaction; GRDB: `updateAll`).
// `batch-delete`: delete every completed task (about 30%) from a fresh copy of a populated store
//   (raw: one DELETE ... WHERE isComplete = 1 in a transaction; GRDB: `deleteAll`).

func makeBatchSubject(_ workload: Workload, _ variant: Variant, env: Environment) throws -> Subject? {
    switch (workload, variant) {
    case (.batchInsert, .persistkit): return try persistKitBatchInsert(env)
    case (.batchUpdate, .persistkit): return try persistKitBatchUpdate(env)
    case (.batchUpdate, .raw): return try rawBatchUpdate(env)
    case (.batchUpdate, .grdb): return try grdbBatchUpdate(env)
    case (.batchDelete, .persistkit): return try persistKitBatchDelete(env)
    case (.batchDelete, .raw): return try rawBatchDelete(env)
    case (.batchDelete, .grdb): return try grdbBatchDelete(env)
    default: return nil   // batch-insert's raw and GRDB variants are `insert`'s (Workloads.swift)
    }
}

enum BatchData {
    /// The due date `batch-update` round `round` gives every open task (seconds since 1970).
    static func due(round: Int) -> Double { DataSet.dueBase + Double(round) * 86_400 }
}

// MARK: - batch-insert

private func persistKitBatchInsert(_ env: Environment) throws -> Subject {
    logDictionaryInsert(env)
    return Subject(.persistkit) { _ in
        let url = try env.directories.newStoreURL("persistkit-batch-insert")
        defer { env.directories.remove(url) }
        let container = try PersistKitBench.openContainer(url, model: env.model)
        let context = container.newContext()
        let tasks = env.tasks
        var next = 0
        let elapsed = try time {
            // The closure form: no dictionaries, one object's values at a time.
            let request = BatchInsertRequest<BenchTask> { task in
                guard next < tasks.count else { return true }
                let data = tasks[next]
                task.name = data.name
                task.notes = data.notes
                task.due = data.due.map { Date(timeIntervalSince1970: $0) }
                task.isComplete = data.isComplete
                next += 1
                return false
            }
            try context.execute(request)
        }
        return ([elapsed], "\(try container.newContext().count(for: PersistKitBench.allRequest))")
    }
}

/// Logs one batch insert from dictionaries (built before the clock starts), to compare the
/// two forms of `BatchInsertRequest`; the row measures the closure form, the faster one.
private func logDictionaryInsert(_ env: Environment) {
    do {
        let url = try env.directories.newStoreURL("persistkit-batch-insert-dictionaries")
        defer { env.directories.remove(url) }
        let container = try PersistKitBench.openContainer(url, model: env.model)
        let context = container.newContext()
        let objects: [[String: Any?]] = env.tasks.map { data in
            ["name": data.name, "notes": data.notes, "due": data.due.map { Date(timeIntervalSince1970: $0) },
             "isComplete": data.isComplete]
        }
        let elapsed = try time { try context.execute(BatchInsertRequest<BenchTask>(objects: objects)) }
        log("    persistkit: BatchInsertRequest(objects:) of \(objects.count) dictionaries took \(formatNumber(elapsed)) ms (one run, warm-up included)")
    } catch {
        log("    persistkit: BatchInsertRequest(objects:) failed: \(error)")
    }
}

// MARK: - batch-update

private func persistKitBatchUpdate(_ env: Environment) throws -> Subject {
    let url = try env.directories.newStoreURL("persistkit-batch-update")
    let container = try PersistKitBench.populatedContainer(url, model: env.model, tasks: env.tasks)
    let context = container.newContext()
    return Subject(.persistkit, round: { round in
        var changed = 0
        let elapsed = try time {
            let request = BatchUpdateRequest<BenchTask>(predicate: \.isComplete == false,
                                                        propertiesToUpdate: ["due": Date(timeIntervalSince1970: BatchData.due(round: round))])
            changed = try context.execute(request).count
        }
        return ([elapsed], "\(changed)")
    }, teardown: { env.directories.remove(url) })
}

private func rawBatchUpdate(_ env: Environment) throws -> Subject {
    let url = try env.directories.newStoreURL("raw-batch-update")
    try RawDatabase.populate(url: url, tasks: env.tasks)
    let db = try RawDatabase(url: url)
    let statement = try db.prepare("UPDATE task SET due = ? WHERE isComplete = 0")
    return Subject(.raw, round: { round in
        var changed: Int32 = 0
        let elapsed = try time {
            try db.execute("BEGIN IMMEDIATE")
            statement.reset()
            statement.bind(BatchData.due(round: round), at: 1)
            try statement.stepDone()
            changed = sqlite3_changes(db.handle)
            try db.execute("COMMIT")
        }
        return ([elapsed], "\(changed)")
    }, teardown: { _ = db; env.directories.remove(url) })
}

private func grdbBatchUpdate(_ env: Environment) throws -> Subject {
    let url = try env.directories.newStoreURL("grdb-batch-update")
    try RawDatabase.populate(url: url, tasks: env.tasks)
    let dbQueue = try openGRDB(url)
    return Subject(.grdb, round: { round in
        var changed = 0
        let elapsed = try time {
            changed = try dbQueue.write { db in
                try TaskRecord.filter(TaskRecord.Columns.isComplete == false)
                    .updateAll(db, TaskRecord.Columns.due.set(to: BatchData.due(round: round)))
            }
        }
        return ([elapsed], "\(changed)")
    }, teardown: { try? dbQueue.close(); env.directories.remove(url) })
}

// MARK: - batch-delete

/// A populated store file every round copies (checkpointed: the copy needs no -wal file).
private func checkpoint(_ url: URL) throws {
    let db = try RawDatabase(url: url)
    try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
}

private func freshCopy(of template: URL, _ label: String, env: Environment) throws -> URL {
    let url = try env.directories.newStoreURL(label)
    try FileManager.default.copyItem(at: template, to: url)
    return url
}

private func persistKitBatchDelete(_ env: Environment) throws -> Subject {
    let template = try env.directories.newStoreURL("persistkit-batch-delete-template")
    _ = try PersistKitBench.populatedContainer(template, model: env.model, tasks: env.tasks)
    try checkpoint(template)
    return Subject(.persistkit, round: { _ in
        let url = try freshCopy(of: template, "persistkit-batch-delete", env: env)
        defer { env.directories.remove(url) }
        let container = try PersistKitBench.openContainer(url, model: env.model)
        let context = container.newContext()
        _ = try context.count(for: PersistKitBench.allRequest)   // the file read in, as the others' is
        let elapsed = try time {
            try context.execute(BatchDeleteRequest<BenchTask>(predicate: \.isComplete == true))
        }
        return ([elapsed], "\(try container.newContext().count(for: PersistKitBench.allRequest))")
    }, teardown: { env.directories.remove(template) })
}

private func plainTemplate(_ env: Environment, _ label: String) throws -> URL {
    let template = try env.directories.newStoreURL(label)
    try RawDatabase.populate(url: template, tasks: env.tasks)
    try checkpoint(template)
    return template
}

private func rawBatchDelete(_ env: Environment) throws -> Subject {
    let template = try plainTemplate(env, "raw-batch-delete-template")
    return Subject(.raw, round: { _ in
        let url = try freshCopy(of: template, "raw-batch-delete", env: env)
        defer { env.directories.remove(url) }
        let db = try RawDatabase(url: url)
        let delete = try db.prepare("DELETE FROM task WHERE isComplete = 1")
        let count = try db.prepare("SELECT COUNT(*) FROM task")
        _ = try count.step()
        count.reset()
        let elapsed = try time {
            try db.execute("BEGIN IMMEDIATE")
            try delete.stepDone()
            try db.execute("COMMIT")
        }
        _ = try count.step()
        let remaining = count.int64(0)
        count.reset()
        return ([elapsed], "\(remaining)")
    }, teardown: { env.directories.remove(template) })
}

private func grdbBatchDelete(_ env: Environment) throws -> Subject {
    let template = try plainTemplate(env, "grdb-batch-delete-template")
    return Subject(.grdb, round: { _ in
        let url = try freshCopy(of: template, "grdb-batch-delete", env: env)
        defer { env.directories.remove(url) }
        let dbQueue = try openGRDB(url)
        _ = try dbQueue.read { db in try TaskRecord.fetchCount(db) }
        let elapsed = try time {
            _ = try dbQueue.write { db in try TaskRecord.filter(TaskRecord.Columns.isComplete == true).deleteAll(db) }
        }
        let remaining = try dbQueue.read { db in try TaskRecord.fetchCount(db) }
        try dbQueue.close()
        return ([elapsed], "\(remaining)")
    }, teardown: { env.directories.remove(template) })
}
