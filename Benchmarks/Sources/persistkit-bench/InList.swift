import Foundation
import PersistKit

// `in-50k`: 50,000 rows named by key out of 1,000,000 (`iterateCount`), through a unique (so
// indexed) integer `key` column that is not the primary key (keys are scattered over the
// table). PersistKit fetches them with one `key IN %@` predicate of 50,000 keys; raw SQLite
// steps one prepared `WHERE key = ?` statement per key, in key order. Issue 30.4's goal: at
// most 2x raw.

/// The entity `in-50k` fetches: the benchmark's task with a unique integer key.
final class KeyedBenchTask: ManagedObject {
    override class var entityName: String { "KeyedTask" }
    @Attribute(.unique) var key: Int64 = 0
    @Attribute var name: String
    @Attribute var notes: String?
    @Attribute var due: Date?
    @Attribute var isComplete = false
}

extension Digest {
    @inline(__always)
    mutating func add(_ task: KeyedBenchTask) {
        add(name: task.name, notes: task.notes, due: task.due?.timeIntervalSince1970, isComplete: task.isComplete)
    }
}

/// What `in-50k` stores and asks for.
private enum InList {
    /// Row `index`'s key: a bijection of the row numbers scattered over 32 bits (an odd
    /// multiplier modulo 2^32), so key order is not row order.
    static func key(ofRow index: Int) -> Int64 { Int64((UInt64(index + 1) &* 2_654_435_761) & 0xFFFF_FFFF) }

    /// The keys `in-50k` fetches: 50,000 rows (at most half the table) from a seeded
    /// generator, sorted.
    static func wantedKeys(count: Int) -> [Int64] {
        var rng = SplitMix(seed: 304)
        var rows = Set<Int>()
        let wanted = min(50_000, count / 2)
        while rows.count < wanted { rows.insert(Int(rng.next() % UInt64(count))) }
        return rows.map(key(ofRow:)).sorted()
    }

    static let rawTable = """
        CREATE TABLE keyed_task (id INTEGER PRIMARY KEY, key INTEGER NOT NULL, name TEXT NOT NULL, notes TEXT,
                                 due REAL, isComplete INTEGER NOT NULL);
        CREATE UNIQUE INDEX keyed_task_key ON keyed_task (key)
        """
    static let rawFetch = "SELECT id, name, notes, due, isComplete FROM keyed_task WHERE key = ?"

    /// The raw store: `tasks` with their keys, written in one transaction (setup, not timed).
    static func populateRaw(_ url: URL, tasks: [TaskData]) throws {
        let db = try RawDatabase(url: url)
        try db.execute(rawTable)
        let insert = try db.prepare("INSERT INTO keyed_task (id, key, name, notes, due, isComplete) VALUES (?, ?, ?, ?, ?, ?)")
        try db.execute("BEGIN IMMEDIATE")
        for (index, task) in tasks.enumerated() {
            insert.reset()
            insert.bind(Int64(index + 1), at: 1)
            insert.bind(key(ofRow: index), at: 2)
            insert.bind(task.name, at: 3)
            insert.bind(task.notes, at: 4)
            insert.bind(task.due, at: 5)
            insert.bind(task.isComplete, at: 6)
            try insert.stepDone()
        }
        try db.execute("COMMIT")
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// The PersistKit store: the same rows and keys, written with SQL into the schema PersistKit
    /// made (setup, not timed, and no million objects in this process).
    static func populatePersistKit(_ url: URL, tasks: [TaskData], model: ManagedObjectModel) throws {
        _ = try PersistKitBench.openContainer(url, model: model)
        let db = try RawDatabase(url: url)
        let insert = try db.prepare("INSERT INTO \"KeyedTask\" (\"_pk\", \"_version\", \"key\", \"name\", \"notes\", \"due\", \"isComplete\") "
                                    + "VALUES (?, 1, ?, ?, ?, ?, ?)")
        try db.execute("BEGIN IMMEDIATE")
        for (index, task) in tasks.enumerated() {
            insert.reset()
            insert.bind(Int64(index + 1), at: 1)
            insert.bind(key(ofRow: index), at: 2)
            insert.bind(task.name, at: 3)
            insert.bind(task.notes, at: 4)
            // PersistKit stores a Date as seconds since 2001: convert as `Date` does.
            insert.bind(task.due.map { Date(timeIntervalSince1970: $0).timeIntervalSinceReferenceDate }, at: 5)
            insert.bind(task.isComplete, at: 6)
            try insert.stepDone()
        }
        try db.execute("COMMIT")
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}

/// A small seeded generator, so every run fetches the same keys.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func runInList(env: Environment, variants: [Variant]) throws -> ResultRow {
    let count = env.config.iterateCount
    let url = try env.directories.newStoreURL("in-list")
    let persistKitURL = try env.directories.newStoreURL("in-list-persistkit")
    defer {
        env.directories.remove(url)
        env.directories.remove(persistKitURL)
    }
    let tasks = count == env.tasks.count ? env.tasks : DataSet.tasks(count: count, seed: 1_000_000)
    let model = try ManagedObjectModel(entities: [KeyedBenchTask.self])
    if variants.contains(.raw) { try InList.populateRaw(url, tasks: tasks) }
    if variants.contains(.persistkit) { try InList.populatePersistKit(persistKitURL, tasks: tasks, model: model) }
    let keys = InList.wantedKeys(count: count)
    var subjects: [Subject] = []
    for variant in variants {
        switch variant {
        case .raw:
            let db = try RawDatabase(url: url)
            let statement = try db.prepare(InList.rawFetch)
            subjects.append(Subject(.raw) { _ in
                var digest = Digest()
                let elapsed = try time {
                    for key in keys {
                        statement.reset()
                        statement.bind(key, at: 1)
                        while try statement.step() { digest.add(statement.plainTask()) }
                    }
                }
                return ([elapsed], "\(digest.count)/\(digest.value)")
            })
        case .persistkit:
            let container = try PersistKitBench.openContainer(persistKitURL, model: model)
            let request = FetchRequest<KeyedBenchTask>(predicate: .in(\.key, keys), sortBy: [FetchSortDescriptor(\.key)])
            subjects.append(Subject(.persistkit) { _ in
                var digest = Digest()
                let context = container.newContext()   // a fresh context: every row is read
                let elapsed = try time {
                    for task in try context.fetch(request) { digest.add(task) }
                }
                return ([elapsed], "\(digest.count)/\(digest.value)")
            })
        default:
            continue
        }
    }
    return try measure(.inList, n: keys.count, subjects: subjects, rounds: env.config.rounds)
}
