import Foundation
import PersistKit

// `migrate-1m`: a store of 1,000,000 tasks written by version 1 of the model (BenchTask)
// opened by version 2, which adds an attribute (`priority`, required, default 1) and a
// relationship (`project`, to a new entity Project): PersistKit's inferred migration beside
// the same statements run by hand in raw SQLite (CREATE TABLE, ALTER TABLE ADD COLUMN twice,
// CREATE INDEX, in one transaction). Each round migrates a fresh copy of the store.

/// Version 2 of the benchmark's model.
final class BenchTaskV2: ManagedObject {
    override class var entityName: String { "Task" }
    @Attribute var name: String
    @Attribute var notes: String?
    @Attribute var due: Date?
    @Attribute var isComplete = false
    @Attribute var priority = 1
    @Relationship(inverse: \BenchV2Project.tasks) var project: BenchV2Project?
}

final class BenchV2Project: ManagedObject {
    override class var entityName: String { "Project" }
    @Attribute(.unique) var name: String
    @Relationship var tasks: Set<BenchTaskV2>
}

/// The same change, in SQL, as the raw variant runs it (the DDL PersistKit writes).
private let rawMigration = """
    BEGIN IMMEDIATE;
    CREATE TABLE "Project" ("_pk" INTEGER PRIMARY KEY, "_version" INTEGER NOT NULL DEFAULT 1, "name" TEXT NOT NULL);
    CREATE UNIQUE INDEX "_persistkit_unique_Project_0" ON "Project" ("name");
    ALTER TABLE "Task" ADD COLUMN "priority" INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE "Task" ADD COLUMN "project" INTEGER REFERENCES "Project"("_pk") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED;
    CREATE INDEX "_persistkit_fk_Task_project" ON "Task" ("project");
    COMMIT;
    """

/// The version-1 store every round copies: `count` tasks, written by SQL (setup, not timed).
private func makeTemplate(_ url: URL, count: Int, model: ManagedObjectModel) throws {
    _ = try PersistKitBench.openContainer(url, model: model)
    let db = try RawDatabase(url: url)
    try db.execute("""
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
        INSERT INTO "Task" ("_pk", "_version", "name", "notes", "due", "isComplete")
        SELECT i, 1, 'task ' || i, CASE WHEN i % 3 = 0 THEN NULL ELSE 'notes ' || i END,
               CASE WHEN i % 4 = 0 THEN NULL ELSE 700000000.0 + i END, i % 2 FROM n
        """)
    try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
}

/// What every variant's migrated store must hold (checked after the clock stops).
private func migratedCheck(_ url: URL) throws -> String {
    let db = try RawDatabase(url: url)
    let statement = try db.prepare("SELECT count(*), sum(priority), count(project), (SELECT count(*) FROM Project) FROM Task")
    guard try statement.step() else { return "" }
    return "\(statement.int64(0))/\(statement.int64(1))/\(statement.int64(2))/\(statement.int64(3))"
}

func runMigrate(env: Environment, variants: [Variant]) throws -> ResultRow {
    let count = env.config.migrateCount
    let template = try env.directories.newStoreURL("migrate-template")
    defer { env.directories.remove(template) }
    try makeTemplate(template, count: count, model: env.model)
    let version2 = try ManagedObjectModel(entities: [BenchTaskV2.self, BenchV2Project.self], version: 2)
    let plan = MigrationPlan(models: [env.model])

    func freshCopy(_ label: String) throws -> URL {
        let url = try env.directories.newStoreURL(label)
        try FileManager.default.copyItem(at: template, to: url)
        return url
    }
    var subjects: [Subject] = []
    if variants.contains(.persistkit) {
        subjects.append(Subject(.persistkit) { _ in
            let url = try freshCopy("migrate-persistkit")
            defer { env.directories.remove(url) }
            var report: MigrationReport?
            let elapsed = try time {
                let container = try PersistentContainer(model: version2, store: .sqlite(url, synchronous: .full),
                                                        options: .init(migrationPlan: plan))
                report = container.migrationReport
            }
            guard report?.toVersion == 2 else { throw BenchError("PersistKit did not migrate the store") }
            let reopen = try time { _ = try PersistKitBench.openContainer(url, model: version2) }
            log("    persistkit: migrated in \(formatNumber(elapsed)) ms; opening the migrated store again takes \(formatNumber(reopen)) ms")
            return ([elapsed], try migratedCheck(url))
        })
    }
    if variants.contains(.raw) {
        subjects.append(Subject(.raw) { _ in
            let url = try freshCopy("migrate-raw")
            defer { env.directories.remove(url) }
            let elapsed = try time {
                let db = try RawDatabase(url: url)
                try db.execute(rawMigration)
            }
            return ([elapsed], try migratedCheck(url))
        })
    }
    return try measure(.migrate, n: count, subjects: subjects, rounds: env.config.rounds)
}
