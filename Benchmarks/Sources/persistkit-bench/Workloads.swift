import Foundation
import GRDB
import PersistKit

/// Builds the subject of `workload` for `variant`, its store set up; nil when the variant does
/// not apply to the workload.
func makeSubject(_ workload: Workload, _ variant: Variant, env: Environment) throws -> Subject? {
    switch (workload, variant) {
    case (.insert, .persistkit): return try persistKitInsert(env)
    case (.insert, .raw): return try rawInsert(env)
    case (.insert, .grdb): return try grdbInsert(env, records: false)
    case (.insert, .grdbRecords): return try grdbInsert(env, records: true)

    case (.fetch, .persistkit): return try persistKitFetch(env, request: PersistKitBench.sortedRequest, measuresMemory: true)
    case (.fetch, .raw): return try rawFetch(env, predicate: false)
    case (.fetch, .grdb): return try grdbFetch(env, predicate: false)
    case (.fetch, .grdbRecords): return try grdbRecordsFetch(env, predicate: false)

    case (.fetchPredicate, .persistkit): return try persistKitFetch(env, request: PersistKitBench.predicateRequest)
    case (.fetchPredicate, .raw): return try rawFetch(env, predicate: true)
    case (.fetchPredicate, .grdb): return try grdbFetch(env, predicate: true)
    case (.fetchPredicate, .grdbRecords): return try grdbRecordsFetch(env, predicate: true)

    case (.update, .persistkit): return try persistKitUpdate(env)
    case (.update, .raw): return try rawUpdate(env)
    case (.update, .grdb): return try grdbUpdate(env)
    case (.update, .grdbRecords): return try grdbRecordsUpdate(env)

    case (.count, .persistkit): return try persistKitCount(env)
    case (.count, .raw): return try rawCount(env)
    case (.count, .grdb): return try grdbCount(env, records: false)
    case (.count, .grdbRecords): return try grdbCount(env, records: true)

    case (.prefetch, _), (.relink, _), (.linkAll, _): return try makeGraphSubject(workload, variant, env: env)

    case (.batchInsert, .raw): return try rawInsert(env)   // the same statements as `insert`
    case (.batchInsert, .grdb): return try grdbInsert(env, records: false)
    case (.batchInsert, _), (.batchUpdate, _), (.batchDelete, _): return try makeBatchSubject(workload, variant, env: env)
    case (.cacheReload, _): return try makeCacheReloadSubject(variant, env: env)

    case (.controllerOneChange, .persistkit): return try persistKitController(env, batch: false)
    case (.controllerBatch, .persistkit): return try persistKitController(env, batch: true)
    case (.controllerOneChange, .grdb), (.controllerBatch, .grdb):
        return try grdbObservation(env, records: false, batch: workload == .controllerBatch)
    case (.controllerOneChange, .grdbRecords), (.controllerBatch, .grdbRecords):
        return try grdbObservation(env, records: true, batch: workload == .controllerBatch)
    case (.controllerOneChange, .raw), (.controllerBatch, .raw):
        return nil

    case (.controllerCatchUp, .persistkit): return try persistKitControllerCatchUp(env)
    case (.controllerCatchUp, _): return nil    // PersistKit only: the others have no such controller

    case (.readDuringWrite, .persistkit): return try persistKitReadDuringWrite(env)
    case (.readDuringWrite, .grdb): return try grdbReadDuringWrite(env)
    case (.parallelRead, .persistkit): return try persistKitParallelRead(env)
    case (.parallelRead, .grdb): return try grdbParallelRead(env)
    case (.readDuringWrite, _), (.parallelRead, _): return nil   // PersistKit beside GRDB's DatabasePool

    case (.iterate, _): return nil             // built by runIterate (child processes)
    case (.inList, _): return nil              // built by runInList (a store of its own)
    case (.migrate, _): return nil             // built by runMigrate (a fresh store copy per round)
    }
}

// MARK: - PersistKit

private func persistKitInsert(_ env: Environment) throws -> Subject {
    Subject(.persistkit) { _ in
        let url = try env.directories.newStoreURL("persistkit-insert")
        defer { env.directories.remove(url) }
        let container = try PersistKitBench.openContainer(url, model: env.model)
        let context = container.newContext()
        let elapsed = try time {
            PersistKitBench.insert(env.tasks, into: context)
            try context.save()
        }
        let count = try container.newContext().count(for: PersistKitBench.allRequest)
        return ([elapsed], "\(count)")
    }
}

private func persistKitFetch(_ env: Environment, request: PersistKit.FetchRequest<BenchTask>, measuresMemory: Bool = false) throws -> Subject {
    let url = try env.directories.newStoreURL("persistkit-fetch")
    let container = try PersistKitBench.populatedContainer(url, model: env.model, tasks: env.tasks)
    return Subject(.persistkit, round: { round in
        // A fresh context per round: the objects are made from rows, not found in an
        // identity map filled by the previous round.
        var objects: [BenchTask] = []
        var digest = Digest()
        let context = container.newContext()
        let before = FetchMemory.allocatedBytes()
        let elapsed = try time {
            objects = try context.fetch(request)
            for task in objects { digest.add(task) }
        }
        if measuresMemory { FetchMemory.record(.persistkit, round: round, before: before, objects: objects.count) }
        _ = objects.count
        return ([elapsed], "\(digest.count)/\(digest.value)")
    }, teardown: { env.directories.remove(url) })
}

private func persistKitUpdate(_ env: Environment) throws -> Subject {
    let url = try env.directories.newStoreURL("persistkit-update")
    let container = try PersistKitBench.populatedContainer(url, model: env.model, tasks: env.tasks)
    let context = container.newContext()
    // Fetched in primary-key order (no sort: ties break by primary key).
    let all = try context.fetch(PersistKitBench.allRequest)
    let targets = env.updateIDs.map { all[Int($0) - 1] }
    let openCount = PersistKitBench.completedRequest
    return Subject(.persistkit, round: { round in
        let elapsed = try time {
            for (i, task) in targets.enumerated() {
                let values = Environment.updatedValues(round: round, index: i)
                task.due = Date(timeIntervalSince1970: values.due)
                task.isComplete = values.isComplete
            }
            try context.save()
        }
        return ([elapsed], "\(try container.newContext().count(for: openCount))")
    }, teardown: { _ = all.count; env.directories.remove(url) })
}

private func persistKitCount(_ env: Environment) throws -> Subject {
    let url = try env.directories.newStoreURL("persistkit-count")
    let container = try PersistKitBench.populatedContainer(url, model: env.model, tasks: env.tasks)
    let context = container.newContext()
    let request = PersistKitBench.countRequest
    return Subject(.persistkit, round: { _ in
        var count = 0
        let elapsed = try time { count = try context.count(for: request) }
        return ([elapsed], "\(count)")
    }, teardown: { env.directories.remove(url) })
}

// MARK: - Raw SQLite

private func rawInsert(_ env: Environment) throws -> Subject {
    Subject(.raw) { _ in
        let url = try env.directories.newStoreURL("raw-insert")
        defer { env.directories.remove(url) }
        let db = try RawDatabase(url: url)
        try db.execute(RawDatabase.createTable)
        let elapsed = try time { try db.insert(env.tasks) }
        let count = try db.prepare("SELECT COUNT(*) FROM task")
        _ = try count.step()
        return ([elapsed], "\(count.int64(0))")
    }
}

private func rawFetch(_ env: Environment, predicate: Bool) throws -> Subject {
    let url = try env.directories.newStoreURL("raw-fetch")
    try RawDatabase.populate(url: url, tasks: env.tasks)
    let db = try RawDatabase(url: url)
    let statement = try db.prepare(predicate ? PlainSQL.fetchPredicate : PlainSQL.fetchAll)
    return Subject(.raw, round: { round in
        var rows: [PlainTask] = []
        var digest = Digest()
        let before = FetchMemory.allocatedBytes()
        let elapsed = try time {
            statement.reset()
            if predicate { statement.bind(PlainSQL.substringPattern, at: 1) }
            while try statement.step() { rows.append(statement.plainTask()) }
            for row in rows { digest.add(row) }
        }
        if !predicate { FetchMemory.record(.raw, round: round, before: before, objects: rows.count) }
        statement.reset()
        return ([elapsed], "\(digest.count)/\(digest.value)")
    }, teardown: { _ = db; env.directories.remove(url) })
}

private func rawUpdate(_ env: Environment) throws -> Subject {
    let url = try env.directories.newStoreURL("raw-update")
    try RawDatabase.populate(url: url, tasks: env.tasks)
    let db = try RawDatabase(url: url)
    let statement = try db.prepare(PlainSQL.update)
    let check = try db.prepare("SELECT COUNT(*) FROM task WHERE isComplete = 1")
    let ids = env.updateIDs
    return Subject(.raw, round: { round in
        let elapsed = try time {
            try db.execute("BEGIN IMMEDIATE")
            for (i, id) in ids.enumerated() {
                let values = Environment.updatedValues(round: round, index: i)
                statement.reset()
                statement.bind(values.due, at: 1)
                statement.bind(values.isComplete, at: 2)
                statement.bind(id, at: 3)
                try statement.stepDone()
            }
            try db.execute("COMMIT")
        }
        check.reset()
        _ = try check.step()
        let completed = check.int64(0)
        check.reset()   // ends the read, as every variant's check does
        return ([elapsed], "\(completed)")
    }, teardown: { _ = db; env.directories.remove(url) })
}

private func rawCount(_ env: Environment) throws -> Subject {
    let url = try env.directories.newStoreURL("raw-count")
    try RawDatabase.populate(url: url, tasks: env.tasks)
    let db = try RawDatabase(url: url)
    let statement = try db.prepare(PlainSQL.count)
    return Subject(.raw, round: { _ in
        var count: Int64 = 0
        let elapsed = try time {
            statement.reset()
            statement.bind(DataSet.countDeadline, at: 1)
            _ = try statement.step()
            count = statement.int64(0)
        }
        statement.reset()
        return ([elapsed], "\(count)")
    }, teardown: { _ = db; env.directories.remove(url) })
}

// MARK: - GRDB

private func grdbInsert(_ env: Environment, records: Bool) throws -> Subject {
    Subject(records ? .grdbRecords : .grdb) { _ in
        let url = try env.directories.newStoreURL(records ? "grdb-records-insert" : "grdb-insert")
        defer { env.directories.remove(url) }
        let dbQueue = try openGRDB(url)
        try dbQueue.write { db in try db.execute(sql: RawDatabase.createTable) }
        let tasks = env.tasks
        let elapsed = try time {
            if records {
                try dbQueue.write { db in
                    for data in tasks { try TaskRecord(data).insert(db) }
                }
            } else {
                try dbQueue.write { db in
                    let statement = try db.cachedStatement(sql: RawDatabase.insertSQL)
                    for data in tasks {
                        statement.setUncheckedArguments([data.name, data.notes, data.due, data.isComplete])
                        try statement.execute()
                    }
                }
            }
        }
        let count = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM task") ?? 0 }
        try dbQueue.close()
        return ([elapsed], "\(count)")
    }
}

/// A GRDB queue on a fresh store holding the generated tasks in the plain schema.
private func populatedGRDB(_ env: Environment, _ label: String) throws -> (DatabaseQueue, URL) {
    let url = try env.directories.newStoreURL(label)
    try RawDatabase.populate(url: url, tasks: env.tasks)
    return (try openGRDB(url), url)
}

private func grdbFetch(_ env: Environment, predicate: Bool) throws -> Subject {
    let (dbQueue, url) = try populatedGRDB(env, "grdb-fetch")
    return Subject(.grdb, round: { round in
        var rows: [FastTask] = []
        var digest = Digest()
        let before = FetchMemory.allocatedBytes()
        defer { if !predicate { FetchMemory.record(.grdb, round: round, before: before, objects: rows.count) } }
        let elapsed = try time {
            rows = try dbQueue.read { db in
                if predicate {
                    let statement = try db.cachedStatement(sql: PlainSQL.fetchPredicate)
                    return try FastTask.fetchAll(statement, arguments: [PlainSQL.substringPattern])
                } else {
                    return try FastTask.fetchAll(db.cachedStatement(sql: PlainSQL.fetchAll))
                }
            }
            for row in rows { digest.add(row) }
        }
        return ([elapsed], "\(digest.count)/\(digest.value)")
    }, teardown: { try? dbQueue.close(); env.directories.remove(url) })
}

private func grdbRecordsFetch(_ env: Environment, predicate: Bool) throws -> Subject {
    let (dbQueue, url) = try populatedGRDB(env, "grdb-records-fetch")
    return Subject(.grdbRecords, round: { round in
        var rows: [TaskRecord] = []
        var digest = Digest()
        let before = FetchMemory.allocatedBytes()
        defer { if !predicate { FetchMemory.record(.grdbRecords, round: round, before: before, objects: rows.count) } }
        let elapsed = try time {
            rows = try dbQueue.read { db in
                if predicate {
                    return try TaskRecord.sorted.filter(TaskRecord.Columns.name.like(PlainSQL.substringPattern)).fetchAll(db)
                } else {
                    return try TaskRecord.sorted.fetchAll(db)
                }
            }
            for row in rows { digest.add(row) }
        }
        return ([elapsed], "\(digest.count)/\(digest.value)")
    }, teardown: { try? dbQueue.close(); env.directories.remove(url) })
}

private func grdbUpdate(_ env: Environment) throws -> Subject {
    let (dbQueue, url) = try populatedGRDB(env, "grdb-update")
    let ids = env.updateIDs
    return Subject(.grdb, round: { round in
        let elapsed = try time {
            try dbQueue.write { db in
                let statement = try db.cachedStatement(sql: PlainSQL.update)
                for (i, id) in ids.enumerated() {
                    let values = Environment.updatedValues(round: round, index: i)
                    statement.setUncheckedArguments([values.due, values.isComplete, id])
                    try statement.execute()
                }
            }
        }
        let count = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM task WHERE isComplete = 1") ?? 0 }
        return ([elapsed], "\(count)")
    }, teardown: { try? dbQueue.close(); env.directories.remove(url) })
}

private func grdbRecordsUpdate(_ env: Environment) throws -> Subject {
    let (dbQueue, url) = try populatedGRDB(env, "grdb-records-update")
    let wanted = Set(env.updateIDs)
    // The records to change, fetched once (as PersistKit's objects are).
    var targets = try dbQueue.read { db in
        try TaskRecord.order(TaskRecord.Columns.id).fetchAll(db).filter { wanted.contains($0.id ?? 0) }
    }
    return Subject(.grdbRecords, round: { round in
        let elapsed = try time {
            for i in targets.indices {
                let values = Environment.updatedValues(round: round, index: i)
                targets[i].due = Date(timeIntervalSince1970: values.due)
                targets[i].isComplete = values.isComplete
            }
            let changed = targets
            try dbQueue.write { db in
                for record in changed { try record.update(db) }
            }
        }
        let count = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM task WHERE isComplete = 1") ?? 0 }
        return ([elapsed], "\(count)")
    }, teardown: { try? dbQueue.close(); env.directories.remove(url) })
}

private func grdbCount(_ env: Environment, records: Bool) throws -> Subject {
    let (dbQueue, url) = try populatedGRDB(env, records ? "grdb-records-count" : "grdb-count")
    return Subject(records ? .grdbRecords : .grdb, round: { _ in
        var count = 0
        let elapsed = try time {
            count = try dbQueue.read { db in
                if records {
                    return try TaskRecord
                        .filter(TaskRecord.Columns.isComplete == false && TaskRecord.Columns.due < DataSet.countDeadline)
                        .fetchCount(db)
                } else {
                    let statement = try db.cachedStatement(sql: PlainSQL.count)
                    return try Int.fetchOne(statement, arguments: [DataSet.countDeadline]) ?? 0
                }
            }
        }
        return ([elapsed], "\(count)")
    }, teardown: { try? dbQueue.close(); env.directories.remove(url) })
}
