import Foundation
import PersistKit
import PersistKitTestSupport
@testable import PersistKitSync
import XCTest

/// Two stores syncing through one space: what one saves reaches the other, both ways, and
/// a round of nothing sends and receives nothing.
final class PushPullTests: SyncTestCase {
    func testWhatOneStoreSavesReachesTheOther() async throws {
        let a = try makeContainer("a"), b = try makeContainer("b")
        let engineA = try engine(a), engineB = try engine(b)

        let context = a.newContext()
        let folder = SFolder(context: context)
        folder.name = "Inbox"
        for index in 0..<3 {
            let note = SNote(context: context)
            note.title = "note \(index)"
            note.count = index
            note.folder = folder
        }
        let label = SLabel(context: context)
        label.name = "urgent"
        folder.notes[1].labels.insert(label)
        let local = SLocal(context: context)
        local.value = 7
        try context.save()

        let first = try await engineA.sync()
        XCTAssertEqual(first.received, 0)
        XCTAssertGreaterThan(first.sent, 0)
        let pulled = try await engineB.sync()
        XCTAssertEqual(pulled.sent, 0, "B had nothing to send")
        XCTAssertGreaterThan(pulled.received, 0)

        let onB = b.newContext()
        let notes = try onB.fetch(FetchRequest<SNote>(sortBy: [FetchSortDescriptor(\.title)]))
        XCTAssertEqual(notes.map(\.title), ["note 0", "note 1", "note 2"])
        XCTAssertEqual(notes.map(\.count), [0, 1, 2])
        let folders = try onB.fetch(FetchRequest<SFolder>())
        XCTAssertEqual(folders.map(\.name), ["Inbox"])
        XCTAssertEqual(folders.first?.notes.map(\.title), ["note 0", "note 1", "note 2"], "the ordered list keeps its order")
        XCTAssertEqual(notes[1].labels.map(\.name), ["urgent"])
        XCTAssertEqual(try onB.count(for: FetchRequest<SLocal>()), 0, "an excluded entity stays home")
        try XCTAssertEqual(GraphSnapshot.of(a), GraphSnapshot.of(b))

        // And back: B edits, A receives.
        notes[0].title = "edited on B"
        onB.delete(notes[2])
        try onB.save()
        try await engineB.sync()
        let back = try await engineA.sync()
        XCTAssertGreaterThan(back.received, 0)
        let onA = a.newContext()
        XCTAssertEqual(try onA.fetch(FetchRequest<SNote>(sortBy: [FetchSortDescriptor(\.title)])).map(\.title), ["edited on B", "note 1"])
        try XCTAssertEqual(GraphSnapshot.of(a), GraphSnapshot.of(b))

        // Nothing new: nothing moves.
        let idle = try await engineA.sync()
        XCTAssertEqual(idle.sent, 0)
        XCTAssertEqual(idle.received, 0)
    }

    func testPulledChangesAreNotPushedBack() async throws {
        let a = try makeContainer("a"), b = try makeContainer("b")
        let engineA = try engine(a), engineB = try engine(b)
        let context = a.newContext()
        let note = SNote(context: context)
        note.title = "from A"
        try context.save()
        try await engineA.sync()
        try await engineB.sync()
        // B's next round has nothing of its own to push.
        let again = try await engineB.sync()
        XCTAssertEqual(again.sent, 0, "B pushed back what it pulled")
        let log = try postgres.psql("SELECT count(*) FROM persistkit_sync.changes", database: database)
        XCTAssertEqual(log, "1", "one object, pushed once")
    }

    /// An attribute whose large values live in files cannot sync as a key: the round says so,
    /// naming it, and sends nothing; excluded, the rest syncs.
    func testAnEntityWithValuesInFilesIsRefusedUntilExcluded() async throws {
        let model = try ManagedObjectModel(entities: [SNote.self, SFolder.self, SLabel.self, SBlob.self])
        let a = try makeContainer("a", model: model)
        let context = a.newContext()
        let blob = SBlob(context: context)
        blob.name = "large"
        blob.bytes = Data(repeating: 7, count: 200_000)
        SNote(context: context).title = "beside it"
        try context.save()
        do {
            try await engine(a).sync()
            XCTFail("an externally stored attribute synced")
        } catch let error as PersistError {
            XCTAssertEqual(error.code, .sync)
            XCTAssertTrue(error.message.contains("SBlob.bytes") && error.message.contains("exclude SBlob"), error.message)
        }
        let sent = try await engine(a) { $0.excludedEntities = ["SBlob"] }.sync().sent
        XCTAssertEqual(sent, 1, "the note, not the blob")
    }

    /// The entities of an inheritance tree share a table sync does not read yet: the round
    /// says so, naming the entity, and sends nothing; excluded, the rest syncs.
    func testAnEntityInheritanceTreeIsRefusedUntilExcluded() async throws {
        let model = try ManagedObjectModel(entities: [SNote.self, SFolder.self, SLabel.self, SPet.self, SCat.self])
        let a = try makeContainer("a", model: model)
        let context = a.newContext()
        SCat(context: context).name = "Tom"
        SNote(context: context).title = "beside it"
        try context.save()
        do {
            try await engine(a).sync()
            XCTFail("an inheritance tree synced")
        } catch let error as PersistError {
            XCTAssertEqual(error.code, .sync)
            XCTAssertTrue(error.message.contains("SPet is in an entity inheritance tree, which PersistKitSync does not sync yet"),
                          error.message)
        }
        let sent = try await engine(a) { $0.excludedEntities = ["SPet", "SCat"] }.sync().sent
        XCTAssertEqual(sent, 1, "the note, not the cat")
    }

    /// README's "Syncing stores" example, compiled here (not run: its server is the reader's).
    private func readmeExample(_ container: PersistentContainer) async throws -> SyncReport {
        let server = try SyncServer(url: "postgres://alice@db.example.com/tasks?sslmode=require")
        let engine = SyncEngine(container: container, server: server, space: "alice")
        let report = try await engine.sync()          // one round: report.sent, .received, .conflictsResolved
        engine.start()                                // or keep syncing, woken by saves and by the server
        return report
    }
}
