import Foundation
import PersistKit
import PersistKitTestSupport
@testable import PersistKitSync
import XCTest

/// Spaces and roles: row-level security keeps a role to its spaces, through PersistKitSync and
/// through raw SQL over the same role; model versions are checked per space.
final class SpaceAccessTests: SyncTestCase {
    /// Roles alice and bob, sync clients, each with a space synced by a store of its own.
    private func twoTenants() async throws -> (alice: PersistentContainer, bob: PersistentContainer) {
        let postgres = try self.postgres
        _ = try serverURL()
        for role in ["alice", "bob"] {
            try postgres.psql("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '\(role)') THEN "
                              + "CREATE ROLE \(role) LOGIN; END IF; END $$")
        }
        let admin = try server()
        try await admin.install()
        try await admin.addClient(role: "alice")
        try await admin.addClient(role: "bob")
        let alice = try makeContainer("alice"), bob = try makeContainer("bob")
        for (container, name) in [(alice, "alice"), (bob, "bob")] {
            let context = container.newContext()
            let note = SNote(context: context)
            note.title = "\(name)'s secret"
            try context.save()
            try await engine(container, space: name, user: name).sync()
        }
        return (alice, bob)
    }

    func testARoleCanNeitherReadNorWriteAnotherRolesSpaceThroughPersistKitSync() async throws {
        _ = try await twoTenants()
        let intruder = try makeContainer("intruder")
        await XCTAssertThrowsErrorAsync(try await self.engine(intruder, space: "bob", user: "alice").sync()) { error in
            XCTAssertEqual((error as? PersistError)?.code, .sync)
            XCTAssertTrue("\(error)".contains("not a member of the space 'bob'"), "\(error)")
        }
        XCTAssertEqual(try intruder.newContext().count(for: FetchRequest<SNote>()), 0)
        // The owner adds alice to bob's space: now she may.
        try await server().addMember(role: "alice", toSpace: "bob")
        try await engine(intruder, space: "bob", user: "alice").sync()
        XCTAssertEqual(try intruder.newContext().fetch(FetchRequest<SNote>()).map(\.title), ["bob's secret"])
    }

    func testARoleCanNeitherReadNorWriteAnotherRolesSpaceThroughRawSQL() async throws {
        _ = try await twoTenants()
        let postgres = try self.postgres
        let objects = "persistkit_sync.objects"
        XCTAssertEqual(try postgres.psql("SELECT count(*) FROM \(objects)", user: "alice", database: database), "1",
                       "alice sees her own object only")
        XCTAssertEqual(try postgres.psql("SELECT count(*) FROM \(objects) WHERE space = 'bob'", user: "alice", database: database), "0")
        XCTAssertEqual(try postgres.psql("SELECT count(*) FROM persistkit_sync.changes WHERE space = 'bob'", user: "alice", database: database), "0")
        XCTAssertEqual(try postgres.psql("SELECT count(*) FROM persistkit_sync.spaces", user: "alice", database: database), "1")
        XCTAssertEqual(try postgres.psql("WITH u AS (UPDATE \(objects) SET fields = '{}' WHERE space = 'bob' RETURNING 1) SELECT count(*) FROM u",
                                         user: "alice", database: database), "0", "an update of bob's rows reaches none")
        XCTAssertEqual(try postgres.psql("WITH d AS (DELETE FROM \(objects) WHERE space = 'bob' RETURNING 1) SELECT count(*) FROM d",
                                         user: "alice", database: database), "0", "a delete of bob's rows reaches none")
        XCTAssertThrowsError(try postgres.psql("INSERT INTO \(objects) (space, id, entity, seq, fields, clocks) "
                                               + "VALUES ('bob', 'x', 'SNote', 99, '{}', '{}')", user: "alice", database: database)) { error in
            XCTAssertTrue("\(error)".contains("row-level security"), "\(error)")
        }
        XCTAssertThrowsError(try postgres.psql("INSERT INTO persistkit_sync.members (space, role) VALUES ('bob', 'alice')",
                                               user: "alice", database: database)) { error in
            XCTAssertTrue("\(error)".contains("row-level security"), "\(error)")
        }
        XCTAssertThrowsError(try postgres.psql("UPDATE persistkit_sync.spaces SET seq = 0 WHERE id = 'bob'; "
                                               + "SELECT 1/(SELECT count(*) FROM persistkit_sync.spaces WHERE id = 'bob')",
                                               user: "alice", database: database))
        // Bob's data is untouched.
        XCTAssertEqual(try postgres.psql("SELECT count(*) FROM \(objects) WHERE space = 'bob' AND fields->>'title' = 'bob''s secret'",
                                         database: database), "1")
    }

    func testAnOlderStoreIsRefusedAndANewerOneUpgradesTheSpace() async throws {
        let old = try makeContainer("old", model: SyncModel.make(version: 1))
        try await engine(old).sync()
        let new = try makeContainer("new", model: SyncModel.make(version: 2))
        try await engine(new).sync()
        XCTAssertEqual(try postgres.psql("SELECT model_version FROM persistkit_sync.spaces", database: database), "2")
        let context = old.newContext()
        let note = SNote(context: context)
        note.title = "old-shaped"
        try context.save()
        await XCTAssertThrowsErrorAsync(try await self.engine(old).sync()) { error in
            let error = error as? PersistError
            XCTAssertEqual(error?.code, .sync)
            XCTAssertEqual(error?.storeVersion, "2")
            XCTAssertEqual(error?.modelVersion, "1")
            XCTAssertTrue(error?.message.contains("holds model version 2, newer than this store's version 1: upgrade first") == true,
                          error?.message ?? "")
        }
        XCTAssertEqual(try postgres.psql("SELECT count(*) FROM persistkit_sync.objects", database: database), "0",
                       "nothing old-shaped was written")
        XCTAssertEqual(try old.newContext().count(for: FetchRequest<SNote>()), 1, "the refused store keeps its change")
    }

    func testAnUnreachableServerLeavesTheChangesQueued() async throws {
        let store = try makeContainer("offline")
        let context = store.newContext()
        let note = SNote(context: context)
        note.title = "written offline"
        try context.save()
        let offline = SyncEngine(container: store, server: try SyncServer(url: "postgres://nobody@127.0.0.1:1/none?sslmode=disable"),
                                 space: "space")
        await XCTAssertThrowsErrorAsync(try await offline.sync()) { error in
            XCTAssertEqual((error as? PersistError)?.code, .sync)
            XCTAssertTrue("\(error)".contains("Cannot reach the sync server"), "\(error)")
        }
        let other = try makeContainer("other")
        try await engine(store).sync()
        try await engine(other).sync()
        XCTAssertEqual(try other.newContext().fetch(FetchRequest<SNote>()).map(\.title), ["written offline"])
    }

    /// Several stores of one role syncing a new space at once: one makes it, the others find
    /// it (they waited for its commit), and none is told it is not a member.
    func testStoresOfOneRoleMakingTheSameNewSpaceAtOnceAllSync() async throws {
        let stores = try (0..<8).map { index in try makeContainer("store\(index)") }
        for (index, store) in stores.enumerated() {
            let context = store.newContext()
            SNote(context: context).title = "from store \(index)"
            try context.save()
        }
        let engines = try stores.map { try engine($0, space: "new") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for engine in engines { group.addTask { try await engine.sync() } }
            try await group.waitForAll()
        }
        for engine in engines { try await engine.sync() }
        for store in stores { XCTAssertEqual(try store.newContext().count(for: FetchRequest<SNote>()), 8) }
    }
}
