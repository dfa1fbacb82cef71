import Foundation
import PersistKit
import PersistKitTestSupport
@testable import PersistKitSync
import XCTest

/// Every synced object has a UUID beside its key, the same on every store; relationships
/// travel by it.
final class GlobalIdentityTests: SyncTestCase {
    func testNameBasedIDsAreRFC9562Version5() {
        // RFC 9562's (and Python's uuid5) value for "python.org" in the DNS namespace.
        let dns: [UInt8] = [0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8]
        XCTAssertEqual(GlobalID.name("python.org", in: dns), "886313e1-3b8a-5372-9b90-0c9aee199e5d")
        // A name longer than one SHA-1 block.
        let url: [UInt8] = [0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8]
        XCTAssertEqual(GlobalID.name(String(repeating: "https://example.com/", count: 20), in: url), "1e894145-75f3-5f19-a046-ed3e9368ab42")
        let a = GlobalID.local(store: "A", entity: "Note", key: 1)
        XCTAssertEqual(a, GlobalID.local(store: "A", entity: "Note", key: 1), "the same object, the same ID: a push tried again names it again")
        XCTAssertNotEqual(a, GlobalID.local(store: "B", entity: "Note", key: 1))
        XCTAssertNotEqual(a, GlobalID.local(store: "A", entity: "Note", key: 2))
    }

    func testEverySyncedObjectHasOneUUIDOnEveryStoreAndLinksNameThem() async throws {
        let a = try makeContainer("a"), b = try makeContainer("b")
        let engineA = try engine(a), engineB = try engine(b)
        let context = a.newContext()
        let folder = SFolder(context: context)
        folder.name = "Inbox"
        let note = SNote(context: context)
        note.title = "with a folder and a label"
        note.folder = folder
        let label = SLabel(context: context)
        label.name = "urgent"
        note.labels.insert(label)
        try context.save()
        try await engineA.sync()
        try await engineB.sync()

        let identities = { (container: PersistentContainer) throws -> [String: String] in
            try container.readStore { sql in
                var found: [String: String] = [:]
                for row in try sql.rows("SELECT entity, id FROM _persistkit_sync_objects") {
                    if case .text(let entity) = row[0], case .text(let id) = row[1] { found[id] = entity }
                }
                return found
            }
        }
        let onA = try identities(a), onB = try identities(b)
        XCTAssertEqual(onA, onB, "both stores name the objects alike")
        XCTAssertEqual(Set(onA.values), ["SFolder", "SNote", "SLabel"])
        for id in onA.keys { XCTAssertNotNil(UUID(uuidString: id), "\(id) is a UUID") }

        // The server names references and links by the same IDs.
        let noteID = try XCTUnwrap(onA.first { $0.value == "SNote" }?.key)
        let folderID = try XCTUnwrap(onA.first { $0.value == "SFolder" }?.key)
        let labelID = try XCTUnwrap(onA.first { $0.value == "SLabel" }?.key)
        let folderOnServer = try postgres.psql("SELECT fields->>'folder' FROM persistkit_sync.objects WHERE id = '\(noteID)'", database: database)
        XCTAssertTrue(folderOnServer.contains(folderID), folderOnServer)
        let linkIDs = try postgres.psql("SELECT id FROM persistkit_sync.objects WHERE entity LIKE '%.%'", database: database)
        XCTAssertTrue(linkIDs.contains(labelID) && linkIDs.contains(noteID), "a link names both ends by UUID: \(linkIDs)")
    }
}
