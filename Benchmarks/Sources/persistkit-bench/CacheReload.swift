import CSQLiteBench
import Foundation
import GRDB
import PersistKit

// `cache-reload`, the Contactually pattern: a cache of 100 buckets × 100 contacts (a bucket's
// contacts cascade), wiped and reloaded every round with new values.
// PersistKit: one `BatchDeleteRequest` of the buckets (the cascade deletes the contacts in SQL),
// then the new objects inserted in a context and saved (batch inserts set no relationships).
// Raw SQLite: DELETE both tables and INSERT everything in one transaction. GRDB: `deleteAll`
// and cached INSERT statements in one `write`.

final class CacheBucket: ManagedObject {
    override class var entityName: String { "Bucket" }
    @Attribute var name: String
    @Relationship(deleteRule: .cascade) var contacts: Set<CacheContact>
}

final class CacheContact: ManagedObject {
    override class var entityName: String { "Contact" }
    @Attribute var name: String
    @Attribute var email: String?
    @Relationship(inverse: \CacheBucket.contacts) var bucket: CacheBucket?
}

enum CacheData {
    static let buckets = 100
    static let contactsPerBucket = 100

    static func bucketName(_ bucket: Int, round: Int) -> String { "bucket \(bucket) r\(round)" }
    static func contactName(_ contact: Int, bucket: Int, round: Int) -> String { "contact \(bucket)-\(contact) r\(round)" }
    /// Every third contact has no email.
    static func email(_ contact: Int, bucket: Int) -> String? {
        contact % 3 == 0 ? nil : "c\(contact)@b\(bucket).example.com"
    }

    static let createBuckets = "CREATE TABLE bucket (id INTEGER PRIMARY KEY, name TEXT NOT NULL)"
    static let createContacts = """
        CREATE TABLE contact (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            email TEXT,
            bucketId INTEGER NOT NULL REFERENCES bucket(id) ON DELETE CASCADE)
        """
    static let indexContacts = "CREATE INDEX contact_bucketId ON contact(bucketId)"
    static let insertBucket = "INSERT INTO bucket (name) VALUES (?)"
    static let insertContact = "INSERT INTO contact (name, email, bucketId) VALUES (?, ?, ?)"
    /// The check every variant agrees on: buckets, contacts, and the name lengths of both.
    static let check = "SELECT (SELECT COUNT(*) FROM bucket), (SELECT COUNT(*) FROM contact), "
        + "(SELECT SUM(LENGTH(name)) FROM contact), (SELECT COUNT(email) FROM contact)"
}

func makeCacheReloadSubject(_ variant: Variant, env: Environment) throws -> Subject? {
    switch variant {
    case .persistkit: return try persistKitCacheReload(env)
    case .raw: return try rawCacheReload(env)
    case .grdb: return try grdbCacheReload(env)
    case .grdbRecords: return nil
    }
}

private func persistKitCacheReload(_ env: Environment) throws -> Subject {
    let url = try env.directories.newStoreURL("persistkit-cache-reload")
    let container = try PersistKitBench.openContainer(url, model: try ManagedObjectModel(entities: [CacheBucket.self, CacheContact.self]))
    let context = container.newContext()
    loadCache(into: context, round: -1)
    try context.save()
    var deletes: [Double] = []
    return Subject(.persistkit, round: { round in
        var deleted: UInt64 = 0
        let started = now()
        let elapsed = try time {
            try context.execute(BatchDeleteRequest<CacheBucket>())
            deleted = now()
            loadCache(into: context, round: round)
            try context.save()
        }
        if round > 0 { deletes.append(ms(started, deleted)) }
        return ([elapsed], try cacheCheck(url))
    }, teardown: {
        log("    persistkit: of which the BatchDeleteRequest (cascade included) \(median(deletes).map(formatNumber) ?? "n/a") ms; "
            + "deleting in the context instead: \((try? contextDeleteReload(env)).map(formatNumber) ?? "failed") ms")
        _ = container
        env.directories.remove(url)
    })
}

/// One launch's reload in PersistKit: the buckets and their contacts, inserted in `context`.
private func loadCache(into context: ManagedObjectContext, round: Int) {
    for b in 0..<CacheData.buckets {
        let bucket = CacheBucket(context: context)
        bucket.name = CacheData.bucketName(b, round: round)
        for c in 0..<CacheData.contactsPerBucket {
            let contact = CacheContact(context: context)
            contact.name = CacheData.contactName(c, bucket: b, round: round)
            contact.email = CacheData.email(c, bucket: b)
            contact.bucket = bucket
        }
    }
}

/// The same reload with the deletes made in the context (fetch the buckets, delete them, the
/// cascade done by the context) and one save: the median of 3 rounds, to compare.
private func contextDeleteReload(_ env: Environment) throws -> Double? {
    let url = try env.directories.newStoreURL("persistkit-cache-reload-context")
    defer { env.directories.remove(url) }
    let container = try PersistKitBench.openContainer(url, model: try ManagedObjectModel(entities: [CacheBucket.self, CacheContact.self]))
    let context = container.newContext()
    var samples: [Double] = []
    for round in -1..<3 {
        let started = now()
        for bucket in try context.fetch(FetchRequest<CacheBucket>()) { context.delete(bucket) }
        loadCache(into: context, round: round)
        try context.save()
        if round >= 0 { samples.append(ms(started, now())) }
    }
    return median(samples)
}

/// The check, read with SQL from PersistKit's tables (named after the entities).
private func cacheCheck(_ url: URL) throws -> String {
    let db = try RawDatabase(url: url)
    let statement = try db.prepare("SELECT (SELECT COUNT(*) FROM \"Bucket\"), (SELECT COUNT(*) FROM \"Contact\"), "
                                   + "(SELECT SUM(LENGTH(name)) FROM \"Contact\"), (SELECT COUNT(email) FROM \"Contact\")")
    return try checkRow(statement)
}

private func checkRow(_ statement: RawStatement) throws -> String {
    statement.reset()
    defer { statement.reset() }
    guard try statement.step() else { return "" }
    return (0..<4).map { String(statement.int64(Int32($0))) }.joined(separator: "/")
}

private func rawCacheReload(_ env: Environment) throws -> Subject {
    let url = try env.directories.newStoreURL("raw-cache-reload")
    let db = try RawDatabase(url: url)
    try db.execute("PRAGMA foreign_keys = ON")
    for sql in [CacheData.createBuckets, CacheData.createContacts, CacheData.indexContacts] { try db.execute(sql) }
    let insertBucket = try db.prepare(CacheData.insertBucket)
    let insertContact = try db.prepare(CacheData.insertContact)
    let check = try db.prepare(CacheData.check)
    func reload(round: Int) throws {
        try db.execute("BEGIN IMMEDIATE")
        try db.execute("DELETE FROM contact; DELETE FROM bucket")
        for b in 0..<CacheData.buckets {
            insertBucket.reset()
            insertBucket.bind(CacheData.bucketName(b, round: round), at: 1)
            try insertBucket.stepDone()
            let bucketID = sqlite3_last_insert_rowid(db.handle)
            for c in 0..<CacheData.contactsPerBucket {
                insertContact.reset()
                insertContact.bind(CacheData.contactName(c, bucket: b, round: round), at: 1)
                insertContact.bind(CacheData.email(c, bucket: b), at: 2)
                insertContact.bind(bucketID, at: 3)
                try insertContact.stepDone()
            }
        }
        try db.execute("COMMIT")
    }
    try reload(round: -1)
    return Subject(.raw, round: { round in
        let elapsed = try time { try reload(round: round) }
        return ([elapsed], try checkRow(check))
    }, teardown: { _ = db; env.directories.remove(url) })
}

private func grdbCacheReload(_ env: Environment) throws -> Subject {
    let url = try env.directories.newStoreURL("grdb-cache-reload")
    let dbQueue = try openGRDB(url)   // GRDB enforces foreign keys by default
    try dbQueue.write { db in
        for sql in [CacheData.createBuckets, CacheData.createContacts, CacheData.indexContacts] { try db.execute(sql: sql) }
    }
    func reload(round: Int) throws {
        try dbQueue.write { db in
            _ = try BucketRecord.deleteAll(db)   // the contacts cascade
            let insertBucket = try db.cachedStatement(sql: CacheData.insertBucket)
            let insertContact = try db.cachedStatement(sql: CacheData.insertContact)
            for b in 0..<CacheData.buckets {
                insertBucket.setUncheckedArguments([CacheData.bucketName(b, round: round)])
                try insertBucket.execute()
                let bucketID = db.lastInsertedRowID
                for c in 0..<CacheData.contactsPerBucket {
                    insertContact.setUncheckedArguments([CacheData.contactName(c, bucket: b, round: round),
                                                         CacheData.email(c, bucket: b), bucketID])
                    try insertContact.execute()
                }
            }
        }
    }
    try reload(round: -1)
    return Subject(.grdb, round: { round in
        let elapsed = try time { try reload(round: round) }
        let check = try dbQueue.read { db -> String in
            guard let row = try Row.fetchOne(db, sql: CacheData.check) else { return "" }
            return (0..<4).map { String(row[$0] as Int64) }.joined(separator: "/")
        }
        return ([elapsed], check)
    }, teardown: { try? dbQueue.close(); env.directories.remove(url) })
}

/// GRDB's record for the bucket table, for `deleteAll`.
struct BucketRecord: TableRecord {
    static let databaseTableName = "bucket"
}
