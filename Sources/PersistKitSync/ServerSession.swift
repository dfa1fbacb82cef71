import Foundation
import Logging
import PersistKit
import PostgresNIO

/// One connection to the server and the statements sync runs on it: installing the schema,
/// opening a space (model checks), a push (one transaction), a page of a pull.
final class ServerSession: @unchecked Sendable {
    // @unchecked Sendable: every stored property is a let; PostgresConnection is itself
    // thread-safe and `waits` has its own lock. A session is used by one sync round at a time
    // (the engine's runner).
    let connection: PostgresConnection
    let server: SyncServer
    let schema: ServerSchema
    private let logger: Logger
    /// The statements waiting for the server, failed when the connection ends.
    private let waits = ConnectionWaits()

    private init(connection: PostgresConnection, server: SyncServer, logger: Logger) {
        self.connection = connection
        self.server = server
        schema = server.serverSchema
        self.logger = logger
        let waits = self.waits, eventLoop = connection.eventLoop, name = server.displayName
        connection.closeFuture.whenComplete { _ in
            // A moment's grace first: PostgresNIO fails the statements it still holds with the
            // server's own words ("terminating connection due to administrator command"); the
            // ones it dropped are failed here.
            eventLoop.scheduleTask(in: .milliseconds(200)) {
                waits.end(SyncFailure.error("The connection to the sync server was closed", server: name))
            }
        }
    }

    /// Connects to `server`, waiting at most its ``SyncServer/responseTimeout``.
    ///
    /// - Throws: `PersistError` `.sync` naming the server and why it could not be reached.
    static func connect(to server: SyncServer, logger: Logger = Logger(label: "PersistKitSync", factory: { _ in SwiftLogNoOpLogHandler() }))
        async throws -> ServerSession {
        do {
            let connection = try await BoundedWait<PostgresConnection>.run(
                timeout: server.responseTimeout,
                timedOut: { SyncFailure.timedOut(server: server, doing: "connecting") },
                orphaned: { late in late.closeNow() }
            ) {
                try await PostgresConnection.connect(configuration: server.connection, id: 1, logger: logger)
            }
            return ServerSession(connection: connection, server: server, logger: logger)
        } catch let error as PersistError {
            throw error
        } catch {
            throw SyncFailure.error("Cannot reach the sync server: \(SyncFailure.describe(error))", server: server.displayName)
        }
    }

    /// Runs `body` with a new session, closed afterwards.
    static func withConnection<T: Sendable>(to server: SyncServer, _ body: (ServerSession) async throws -> T) async throws -> T {
        let session = try await connect(to: server)
        do {
            let result = try await body(session)
            session.close()
            return result
        } catch {
            session.close()
            throw SyncFailure.wrap(error, doing: "talking to the server", server: server.displayName, space: nil)
        }
    }

    /// Closes the connection; every statement still waiting on it, and every later one, fails
    /// at once.
    func close() {
        waits.end(SyncFailure.error("The connection to the sync server was closed", server: server.displayName))
        connection.closeNow()
    }

    /// Whether statements can still run: neither closed here nor by the server.
    var isOpen: Bool { !waits.hasEnded && !connection.isClosed }

    deinit {
        // PostgresNIO requires a connection closed before it goes.
        if !connection.isClosed { connection.closeNow() }
    }

    // MARK: Statements

    /// `operation` on this session's connection, bounded: it fails when the server does not
    /// answer within ``SyncServer/responseTimeout`` (the connection is then closed, since its
    /// statement may still be under way) or when the connection ends.
    private func bounded<T: Sendable>(_ sql: String, timeout: TimeInterval?, _ operation: @escaping @Sendable () async throws -> T)
        async throws -> T {
        let server = self.server, connection = self.connection
        return try await BoundedWait<T>.run(
            timeout: timeout, waits: waits,
            timedOut: { SyncFailure.timedOut(server: server, doing: "running " + ServerSession.summary(of: sql)) },
            onTimeout: { [weak self] in
                self?.close()
                connection.closeNow()
            },
            operation)
    }

    /// A statement's first words, as an error names it.
    static func summary(of sql: String) -> String {
        let words = sql.split(whereSeparator: \.isWhitespace).prefix(3).joined(separator: " ")
        return words.count < sql.count ? words + "..." : words
    }

    func execute(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) async throws {
        let connection = self.connection, logger = self.logger
        try await bounded(sql, timeout: server.responseTimeout) {
            try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
            return ()
        }
    }

    /// The rows of a statement, decoded as `T`.
    func rows<each T: PostgresDecodable>(_ sql: String, _ binds: PostgresBindings = PostgresBindings(),
                                         as types: (repeat each T).Type) async throws -> [(repeat each T)] {
        let connection = self.connection, logger = self.logger
        let rows = try await bounded(sql, timeout: server.responseTimeout) {
            var rows: [PostgresRow] = []
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger) {
                rows.append(row)
            }
            return rows
        }
        return try rows.map { try $0.decode((repeat each T).self) }
    }

    /// Listens on `channel`, calling `notified` for each notification, until the connection ends
    /// (then it throws) or the task is cancelled.
    func listen(on channel: String, _ notified: @escaping @Sendable () -> Void) async throws {
        let connection = self.connection
        try await bounded("LISTEN \(channel)", timeout: nil) {
            try await connection.listen(on: channel) { notifications in
                for try await _ in notifications { notified() }
            }
        }
    }

    func transaction<T: Sendable>(_ body: (ServerSession) async throws -> T) async throws -> T {
        try await execute("BEGIN")
        do {
            let result = try await body(self)
            try await execute("COMMIT")
            return result
        } catch {
            try? await execute("ROLLBACK")
            throw error
        }
    }

    // MARK: Schema

    /// Creates or updates the schema, one installer at a time (an advisory lock). An installer
    /// that waited for another finds the schema current and runs no statement: its DDL would
    /// lock the tables against the pushes already under way (and deadlock with them).
    func install() async throws {
        try await transaction { session in
            try await session.execute("SELECT pg_advisory_xact_lock(hashtext($1))", binds("persistkit_sync install " + schema.name))
            if try await session.installedVersion() == ServerSchema.version { return }
            for statement in schema.installStatements { try await session.execute(statement) }
        }
    }

    /// The version of the installed schema; nil when there is none.
    private func installedVersion() async throws -> Int? {
        let found: [(String)]
        do {
            try await execute("SAVEPOINT schema_version")
            found = try await rows("SELECT value FROM \(schema.table("info")) WHERE key = 'schemaVersion'", as: (String).self)
            try await execute("RELEASE SAVEPOINT schema_version")
        } catch where SyncFailure.sqlState(of: error) == "42P01" || SyncFailure.sqlState(of: error) == "3F000" {
            try await execute("ROLLBACK TO SAVEPOINT schema_version")
            return nil
        }
        return found.first.flatMap { Int($0) } ?? 0
    }

    /// Checks the schema is there and current; installs or migrates it when this role may.
    func ensureSchema() async throws {
        let found: [(String)]
        do {
            found = try await rows("SELECT value FROM \(schema.table("info")) WHERE key = 'schemaVersion'", as: (String).self)
        } catch where SyncFailure.sqlState(of: error) == "42P01" || SyncFailure.sqlState(of: error) == "3F000" {
            try await installOrExplain(missing: true)
            return
        }
        let version = found.first.flatMap { Int($0) } ?? 0
        if version > ServerSchema.version {
            throw SyncFailure.error("The server's sync schema \(schema.name) is version \(version); this PersistKitSync knows "
                                    + "version \(ServerSchema.version): upgrade PersistKitSync", server: server.displayName)
        }
        if version < ServerSchema.version { try await installOrExplain(missing: false) }
    }

    private func installOrExplain(missing: Bool) async throws {
        do {
            try await install()
        } catch where ["42501", "42P01", "3F000"].contains(SyncFailure.sqlState(of: error) ?? "") {
            throw SyncFailure.error("The server has \(missing ? "no" : "an older") sync schema \(schema.name), and role "
                                    + "\(server.connection.username) may not \(missing ? "create" : "update") it: run "
                                    + "SyncServer.install() as its owner", server: server.displayName)
        }
    }

    func addMember(role: String, space: String) async throws {
        let exists = try await rows("SELECT count(*) FROM \(schema.table("spaces")) WHERE id = $1", binds(space), as: (Int64).self)
        guard exists.first == 1 else {
            throw SyncFailure.error("There is no space '\(space)' yet (a client's first sync makes it)", server: server.displayName,
                                    space: space)
        }
        try await execute("INSERT INTO \(schema.table("members")) (space, role) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                          binds(space, role))
    }

    // MARK: Spaces

    /// A space's record: where its sequence stands and the model its stores must have.
    struct Space: Sendable {
        let sequence: Int64
        let modelVersion: Int
        let modelHash: String
        let deletePolicy: String
    }

    /// Reads `space` (for update, inside a push), making it when it does not exist, and checks
    /// the model: an older local model is refused, a newer one upgrades the space's record.
    func openSpace(_ space: String, model: ManagedObjectModel, policy: SyncConfiguration.DeletePolicy,
                   forUpdate: Bool) async throws -> Space {
        let query = "SELECT seq, model_version, model_hash, delete_policy FROM \(schema.table("spaces")) WHERE id = $1"
            + (forUpdate ? " FOR UPDATE" : "")
        var found = try await rows(query, binds(space), as: (Int64, Int, String, String).self).first
        if found == nil {
            try await createSpace(space, model: model, policy: policy)
            found = try await rows(query, binds(space), as: (Int64, Int, String, String).self).first
        }
        guard let (sequence, version, hash, storedPolicy) = found else {
            // It exists (another client made it), and row-level security hides it from this role.
            throw SyncFailure.error("Role \(server.connection.username) is not a member of the space '\(space)'",
                                    server: server.displayName, space: space)
        }
        guard storedPolicy == policy.rawValue else {
            throw SyncFailure.error("The space '\(space)' resolves deletes by \(storedPolicy), this engine by \(policy.rawValue): "
                                    + "every store of a space must use the space's policy", server: server.displayName, space: space)
        }
        if version > model.version {
            var error = SyncFailure.error("The space '\(space)' holds model version \(version), newer than this store's version "
                                          + "\(model.version): upgrade first (nothing was synced)", server: server.displayName, space: space)
            error.storeVersion = String(version)
            error.modelVersion = String(model.version)
            throw error
        }
        if version == model.version && hash != model.versionHash {
            var error = SyncFailure.error("The space '\(space)' holds another model of version \(version) (its hash differs from "
                                          + "this store's): nothing was synced", server: server.displayName, space: space)
            error.storeVersion = String(version)
            error.modelVersion = String(model.version)
            throw error
        }
        if version < model.version && forUpdate {
            try await execute("UPDATE \(schema.table("spaces")) SET model_version = $2, model_hash = $3, model_document = $4::jsonb "
                              + "WHERE id = $1", binds(space, model.version, model.versionHash,
                                                       String(decoding: model.document, as: UTF8.self)))
        }
        return Space(sequence: sequence, modelVersion: max(version, forUpdate ? model.version : version), modelHash: hash,
                     deletePolicy: storedPolicy)
    }

    /// Makes a space whose first member is the connected role. When another client made it in
    /// the meantime (the insert waited for its commit), nothing is made: the caller reads the
    /// space again, which it sees if this role is a member (the same role syncing several
    /// stores at once) and does not see otherwise. A role row-level security refuses is not a member.
    private func createSpace(_ space: String, model: ManagedObjectModel, policy: SyncConfiguration.DeletePolicy) async throws {
        do {
            try await execute("SAVEPOINT create_space")
            try await execute("INSERT INTO \(schema.table("spaces")) (id, model_version, model_hash, model_document, delete_policy) "
                              + "VALUES ($1, $2, $3, $4::jsonb, $5)",
                              binds(space, model.version, model.versionHash, String(decoding: model.document, as: UTF8.self), policy.rawValue))
            try await execute("INSERT INTO \(schema.table("members")) (space, role) VALUES ($1, current_user)", binds(space))
            try await execute("RELEASE SAVEPOINT create_space")
        } catch where SyncFailure.sqlState(of: error) == "23505" {
            try await execute("ROLLBACK TO SAVEPOINT create_space")
        } catch where SyncFailure.sqlState(of: error) == "42501" {
            try? await execute("ROLLBACK TO SAVEPOINT create_space")
            throw SyncFailure.error("Role \(server.connection.username) is not a member of the space '\(space)'",
                                    server: server.displayName, space: space)
        }
    }

    /// The channel the space's pushes notify.
    func channel(of space: String) async throws -> String {
        try await rows("SELECT \(schema.channelExpression(space: "$1"))", binds(space), as: (String).self).first ?? schema.name
    }

    // MARK: Rows

    /// The rows of `ids` in `space` (those that exist).
    func records(_ ids: [String], space: String) async throws -> [SyncRecord] {
        guard !ids.isEmpty else { return [] }
        return try decodeRecords(try await rows(
            "SELECT id, entity, fields::text, clocks::text, deleted, merged_into, seq FROM \(schema.table("objects")) "
                + "WHERE space = $1 AND id = ANY($2)", binds(space, Array(Set(ids))),
            as: (String, String, String, String, String?, String?, Int64).self)).map(\.record)
    }

    /// The link rows with `id` at either end.
    func links(of id: String, space: String) async throws -> [SyncRecord] {
        try decodeRecords(try await rows(
            "SELECT id, entity, fields::text, clocks::text, deleted, merged_into, seq FROM \(schema.table("objects")) "
                + "WHERE space = $1 AND (owner = $2 OR target = $2)", binds(space, id),
            as: (String, String, String, String, String?, String?, Int64).self)).map(\.record)
    }

    /// The rows changed after `sequence`, oldest change first, at most `limit`.
    func changes(after sequence: Int64, space: String, limit: Int) async throws -> [(record: SyncRecord, sequence: Int64)] {
        try decodeRecords(try await rows(
            "SELECT id, entity, fields::text, clocks::text, deleted, merged_into, seq FROM \(schema.table("objects")) "
                + "WHERE space = $1 AND seq > $2 ORDER BY seq LIMIT $3", binds(space, sequence, Int64(limit)),
            as: (String, String, String, String, String?, String?, Int64).self))
    }

    private func decodeRecords(_ rows: [(String, String, String, String, String?, String?, Int64)]) throws
        -> [(record: SyncRecord, sequence: Int64)] {
        let decoder = JSONDecoder()
        return try rows.map { id, entity, fields, clocks, deleted, merged, sequence in
            do {
                let record = SyncRecord(id: id, entity: entity,
                                        fields: try decoder.decode([String: SyncValue].self, from: Data(fields.utf8)),
                                        clocks: try decoder.decode([String: String].self, from: Data(clocks.utf8)),
                                        deleted: deleted, mergedInto: merged)
                return (record, sequence)
            } catch {
                throw SyncFailure.error("The server's row for \(id) is damaged: \(error)", server: server.displayName)
            }
        }
    }

    /// Writes rows (inserted or replaced) with their new sequence numbers, and their change log entries.
    func write(_ records: [(record: SyncRecord, logged: SyncRecord, sequence: Int64)], space: String, client: String) async throws {
        let encoder = JSONEncoder.sorted
        for chunk in records.chunked(2_000) {
            var ids: [String] = [], entities: [String] = [], sequences: [Int64] = [], fields: [String] = [], clocks: [String] = []
            var deleted: [String] = [], merged: [String] = [], owners: [String] = [], targets: [String] = []
            var logFields: [String] = [], logClocks: [String] = []
            for (record, logged, sequence) in chunk {
                ids.append(record.id)
                entities.append(record.entity)
                sequences.append(sequence)
                fields.append(String(decoding: try encoder.encode(record.fields), as: UTF8.self))
                clocks.append(String(decoding: try encoder.encode(record.clocks), as: UTF8.self))
                deleted.append(record.deleted ?? "")
                merged.append(record.mergedInto ?? "")
                owners.append(record.fields[SyncRecord.ownerKey]?.text ?? "")
                targets.append(record.fields[SyncRecord.targetKey]?.text ?? "")
                logFields.append(String(decoding: try encoder.encode(logged.fields), as: UTF8.self))
                logClocks.append(String(decoding: try encoder.encode(logged.clocks), as: UTF8.self))
            }
            try await execute("""
                INSERT INTO \(schema.table("objects")) (space, id, entity, seq, fields, clocks, deleted, merged_into, owner, target)
                SELECT $1, i, e, s, f::jsonb, c::jsonb, NULLIF(d, ''), NULLIF(m, ''), NULLIF(o, ''), NULLIF(t, '')
                FROM unnest($2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
                    AS u(i, e, s, f, c, d, m, o, t)
                ON CONFLICT (space, id) DO UPDATE SET entity = excluded.entity, seq = excluded.seq, fields = excluded.fields,
                    clocks = excluded.clocks, deleted = excluded.deleted, merged_into = excluded.merged_into,
                    owner = excluded.owner, target = excluded.target
                """, binds(space, ids, entities, sequences, fields, clocks, deleted, merged, owners, targets))
            try await execute("""
                INSERT INTO \(schema.table("changes")) (space, seq, client, id, entity, fields, clocks, deleted, merged_into)
                SELECT $1, s, $2, i, e, f::jsonb, c::jsonb, NULLIF(d, ''), NULLIF(m, '')
                FROM unnest($3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[]) AS u(s, i, e, f, c, d, m)
                """, binds(space, client, sequences, ids, entities, logFields, logClocks, deleted, merged))
        }
    }

    /// The holders of constrained values in `space`, by value.
    func uniqueHolders(_ values: [ServerMerge.UniqueValue], space: String) async throws -> [ServerMerge.UniqueValue: String] {
        var found: [ServerMerge.UniqueValue: String] = [:]
        for chunk in Array(Set(values)).chunked(2_000) {
            let rows = try await rows("""
                SELECT u.entity, u.keys, u.value, u.id FROM \(schema.table("uniques")) u
                JOIN unnest($2::text[], $3::text[], $4::text[]) AS w(e, k, v) ON u.entity = w.e AND u.keys = w.k AND u.value = w.v
                WHERE u.space = $1
                """, binds(space, chunk.map(\.entity), chunk.map(\.keys), chunk.map(\.value)), as: (String, String, String, String).self)
            for (entity, keys, value, id) in rows { found[ServerMerge.UniqueValue(entity: entity, keys: keys, value: value)] = id }
        }
        return found
    }

    /// Removes constrained values given up and records those held.
    func writeUniques(removed: [(ServerMerge.UniqueValue, String)], held: [(ServerMerge.UniqueValue, String)], space: String) async throws {
        for chunk in removed.chunked(2_000) where !chunk.isEmpty {
            try await execute("""
                DELETE FROM \(schema.table("uniques")) u USING unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS w(e, k, v, i)
                WHERE u.space = $1 AND u.entity = w.e AND u.keys = w.k AND u.value = w.v AND u.id = w.i
                """, binds(space, chunk.map(\.0.entity), chunk.map(\.0.keys), chunk.map(\.0.value), chunk.map(\.1)))
        }
        for chunk in held.chunked(2_000) where !chunk.isEmpty {
            try await execute("""
                INSERT INTO \(schema.table("uniques")) (space, entity, keys, value, id)
                SELECT $1, e, k, v, i FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS w(e, k, v, i)
                ON CONFLICT (space, entity, keys, value) DO UPDATE SET id = excluded.id
                """, binds(space, chunk.map(\.0.entity), chunk.map(\.0.keys), chunk.map(\.0.value), chunk.map(\.1)))
        }
    }

    /// Moves the space's sequence to `sequence` and wakes its listeners.
    func advance(space: String, to sequence: Int64) async throws {
        try await execute("UPDATE \(schema.table("spaces")) SET seq = $2 WHERE id = $1", binds(space, sequence))
        try await execute("SELECT pg_notify(\(schema.channelExpression(space: "$1")), $2)", binds(space, String(sequence)))
    }
}

/// Bindings for `$1`, `$2`... in order.
func binds<each T: PostgresNonThrowingEncodable & Sendable>(_ values: repeat each T) -> PostgresBindings {
    var bindings = PostgresBindings()
    repeat bindings.append(each values)
    return bindings
}

private extension PostgresConnection {
    /// Closes the connection without waiting (its statements fail; see ``ConnectionWaits``).
    /// The connection is kept until it has closed: PostgresNIO requires a connection closed
    /// before it goes.
    func closeNow() {
        let closing: EventLoopFuture<Void> = close()
        closing.whenComplete { _ in withExtendedLifetime(self) {} }
    }
}
