import Foundation
import GRDB
import PersistKit

// `prefetch`: fetch every task, sorted as `fetch` sorts, with its project, and read every
// task's project name.
// `relink`: move 1,000 tasks to other projects and save.
// `link-all`: move every task, one by one, into one project whose task list is loaded (and
// out of the one that held them all), and save.

func makeGraphSubject(_ workload: Workload, _ variant: Variant, env: Environment) throws -> Subject? {
    switch (workload, variant) {
    case (.prefetch, .persistkit): return try persistKitPrefetch(env)
    case (.prefetch, .raw): return try rawPrefetch(env)
    case (.prefetch, .grdb): return try grdbPrefetch(env)
    case (.prefetch, .grdbRecords): return try grdbRecordsPrefetch(env)
    case (.relink, .persistkit): return try persistKitRelink(env)
    case (.relink, .raw): return try rawRelink(env)
    case (.relink, .grdb): return try grdbRelink(env, records: false)
    case (.relink, .grdbRecords): return try grdbRelink(env, records: true)
    case (.linkAll, .persistkit): return try persistKitLinkAll(env)
    case (.linkAll, .raw): return try rawLinkAll(env)
    default: return nil
    }
}

// MARK: - prefetch

private func persistKitPrefetch(_ env: Environment) throws -> Subject {
    let url = try env.directories.newStoreURL("persistkit-prefetch")
    let container = try PersistKitBench.populatedGraphContainer(url, env: env)
    // The `fetch` workload's request, with each task's project.
    var request = FetchRequest<LinkedTask>(sortBy: [FetchSortDescriptor(\.isComplete), FetchSortDescriptor(\.due, nils: .last)])
    request.relationshipKeyPathsForPrefetching = ["project"]
    return Subject(.persistkit, round: { _ in
        // A fresh context per round, as in `fetch`: nothing comes from an identity map.
        var objects: [LinkedTask] = []
        var digest = Digest()
        let context = container.newContext()
        let elapsed = try time {
            objects = try context.fetch(request)
            for task in objects {
                digest.add(task)
                digest.add(related: task.project?.name ?? "")
            }
        }
        _ = objects.count
        return ([elapsed], "\(digest.count)/\(digest.value)")
    }, teardown: { env.directories.remove(url) })
}

private func rawPrefetch(_ env: Environment) throws -> Subject {
    let url = try env.directories.newStoreURL("raw-prefetch")
    let db = try RawDatabase.populateGraph(url: url, env: env)
    let statement = try db.prepare(GraphSQL.fetchWithProjects)
    return Subject(.raw, round: { _ in
        var rows: [(task: PlainTask, project: String)] = []
        var digest = Digest()
        let elapsed = try time {
            statement.reset()
            while try statement.step() { rows.append((statement.plainTask(), statement.text(5))) }
            for row in rows {
                digest.add(row.task)
                digest.add(related: row.project)
            }
        }
        statement.reset()
        return ([elapsed], "\(digest.count)/\(digest.value)")
    }, teardown: { _ = db; env.directories.remove(url) })
}

private func grdbPrefetch(_ env: Environment) throws -> Subject {
    let url = try env.directories.newStoreURL("grdb-prefetch")
    _ = try RawDatabase.populateGraph(url: url, env: env)
    let dbQueue = try openGRDB(url)
    return Subject(.grdb, round: { _ in
        var rows: [FastTaskWithProject] = []
        var digest = Digest()
        let elapsed = try time {
            rows = try dbQueue.read { db in try FastTaskWithProject.fetchAll(db.cachedStatement(sql: GraphSQL.fetchWithProjects)) }
            for row in rows {
                digest.add(row.task)
                digest.add(related: row.projectName)
            }
        }
        return ([elapsed], "\(digest.count)/\(digest.value)")
    }, teardown: { try? dbQueue.close(); env.directories.remove(url) })
}

private func grdbRecordsPrefetch(_ env: Environment) throws -> Subject {
    let url = try env.directories.newStoreURL("grdb-records-prefetch")
    _ = try RawDatabase.populateGraph(url: url, env: env)
    let dbQueue = try openGRDB(url)
    let request = LinkedTaskRecord.including(required: LinkedTaskRecord.project)
        .order(Column("isComplete"), Column("due").ascNullsLast, Column("id"))
    return Subject(.grdbRecords, round: { _ in
        var rows: [TaskWithProject] = []
        var digest = Digest()
        let elapsed = try time {
            rows = try dbQueue.read { db in try TaskWithProject.fetchAll(db, request) }
            for row in rows {
                digest.add(row.task)
                digest.add(related: row.project.name)
            }
        }
        return ([elapsed], "\(digest.count)/\(digest.value)")
    }, teardown: { try? dbQueue.close(); env.directories.remove(url) })
}

// MARK: - relink

private func persistKitRelink(_ env: Environment) throws -> Subject {
    let url = try env.directories.newStoreURL("persistkit-relink")
    let container = try PersistKitBench.populatedGraphContainer(url, env: env)
    let context = container.newContext()
    // Fetched once, in primary-key order (as `update`'s objects are); the moved tasks' projects loaded.
    let projects = try context.fetch(FetchRequest<BenchProject>())
    var request = FetchRequest<LinkedTask>()
    request.relationshipKeyPathsForPrefetching = ["project"]
    let all = try context.fetch(request)
    let indices = GraphData.relinkIndices(env)
    let targets = indices.map { all[$0] }
    let check = FetchRequest<BenchProject>(predicate: \.name == GraphData.projectName(0))
    return Subject(.persistkit, round: { round in
        let elapsed = try time {
            for (task, index) in zip(targets, indices) {
                task.project = projects[GraphData.relinkedProject(ofTask: index, round: round, projects: projects.count)]
            }
            try context.save()
        }
        let checkContext = container.newContext()
        let first = try checkContext.fetch(check).first?.tasks.count ?? -1
        return ([elapsed], "\(first)")
    }, teardown: { _ = all.count; env.directories.remove(url) })
}

private func rawRelink(_ env: Environment) throws -> Subject {
    let url = try env.directories.newStoreURL("raw-relink")
    let db = try RawDatabase.populateGraph(url: url, env: env)
    let statement = try db.prepare(GraphSQL.relink)
    let check = try db.prepare(GraphData.firstProjectCount)
    let indices = GraphData.relinkIndices(env)
    let projects = GraphData.projectCount(env)
    return Subject(.raw, round: { round in
        let elapsed = try time {
            try db.execute("BEGIN IMMEDIATE")
            for index in indices {
                statement.reset()
                statement.bind(Int64(GraphData.relinkedProject(ofTask: index, round: round, projects: projects) + 1), at: 1)
                statement.bind(Int64(index + 1), at: 2)
                try statement.stepDone()
            }
            try db.execute("COMMIT")
        }
        check.reset()
        _ = try check.step()
        let first = check.int64(0)
        check.reset()
        return ([elapsed], "\(first)")
    }, teardown: { _ = db; env.directories.remove(url) })
}

private func grdbRelink(_ env: Environment, records: Bool) throws -> Subject {
    let url = try env.directories.newStoreURL(records ? "grdb-records-relink" : "grdb-relink")
    _ = try RawDatabase.populateGraph(url: url, env: env)
    let dbQueue = try openGRDB(url)
    let indices = GraphData.relinkIndices(env)
    let projects = GraphData.projectCount(env)
    // The records to move, fetched once (as PersistKit's objects are).
    let wanted = Set(indices.map { Int64($0 + 1) })
    var targets = try dbQueue.read { db in
        try LinkedTaskRecord.order(Column("id")).fetchAll(db).filter { wanted.contains($0.id ?? 0) }
    }
    return Subject(records ? .grdbRecords : .grdb, round: { round in
        let elapsed = try time {
            if records {
                for i in targets.indices {
                    targets[i].projectId = Int64(GraphData.relinkedProject(ofTask: indices[i], round: round, projects: projects) + 1)
                }
                let changed = targets
                try dbQueue.write { db in
                    for record in changed { try record.update(db) }
                }
            } else {
                try dbQueue.write { db in
                    let statement = try db.cachedStatement(sql: GraphSQL.relink)
                    for index in indices {
                        let project = Int64(GraphData.relinkedProject(ofTask: index, round: round, projects: projects) + 1)
                        statement.setUncheckedArguments([project, Int64(index + 1)])
                        try statement.execute()
                    }
                }
            }
        }
        let first = try dbQueue.read { db in try Int.fetchOne(db, sql: GraphData.firstProjectCount) ?? 0 }
        return ([elapsed], "\(first)")
    }, teardown: { try? dbQueue.close(); env.directories.remove(url) })
}

// MARK: - link-all

/// The project round `round` of `link-all` moves every task into.
private func linkAllTarget(round: Int, projects: Int) -> Int { round % projects }

private func persistKitLinkAll(_ env: Environment) throws -> Subject {
    let url = try env.directories.newStoreURL("persistkit-link-all")
    let container = try PersistKitBench.populatedGraphContainer(url, env: env)
    let context = container.newContext()
    // In primary-key order, as raw SQLite's ids: project i is the (i + 1)th.
    let projects = try context.fetch(FetchRequest<BenchProject>()).sorted { ($0.objectID.primaryKey ?? 0) < ($1.objectID.primaryKey ?? 0) }
    let all = try context.fetch(FetchRequest<LinkedTask>())
    return Subject(.persistkit, round: { round in
        let target = projects[linkAllTarget(round: round, projects: projects.count)]
        // The target's list loaded, and the one that holds every task after the last round.
        _ = target.tasks.count
        if round > 0 { _ = projects[linkAllTarget(round: round - 1, projects: projects.count)].tasks.count }
        let elapsed = try time {
            for task in all { target.$tasks.insert(task) }
            try context.save()
        }
        return ([elapsed], "\(target.$tasks.count)")
    }, teardown: { env.directories.remove(url) })
}

private func rawLinkAll(_ env: Environment) throws -> Subject {
    let url = try env.directories.newStoreURL("raw-link-all")
    let db = try RawDatabase.populateGraph(url: url, env: env)
    let statement = try db.prepare(GraphSQL.relink)
    let check = try db.prepare("SELECT COUNT(*) FROM task WHERE projectId = ?")
    let projects = GraphData.projectCount(env)
    let count = env.tasks.count
    return Subject(.raw, round: { round in
        let project = Int64(linkAllTarget(round: round, projects: projects) + 1)
        let elapsed = try time {
            try db.execute("BEGIN IMMEDIATE")
            for id in 1...count {
                statement.reset()
                statement.bind(project, at: 1)
                statement.bind(Int64(id), at: 2)
                try statement.stepDone()
            }
            try db.execute("COMMIT")
        }
        check.reset()
        check.bind(project, at: 1)
        _ = try check.step()
        let linked = check.int64(0)
        check.reset()
        return ([elapsed], "\(linked)")
    }, teardown: { _ = db; env.directories.remove(url) })
}
