import Foundation
import PersistKit
import TaskModel
import XCTest

/// Issue 31: files attached to tasks, their large bytes kept outside the database file.
final class AttachmentTests: XCTestCase {
    private let clock = TestClock(isoDate("2026-11-21T09:00:00.000Z"))

    /// `count` bytes of a pattern that differs with `seed`.
    private func bytes(_ count: Int, seed: UInt8 = 7) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9) &+ seed })
    }

    private func externalFiles(_ fixture: TaskStoreFixture) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: fixture.url.path + "-external")) ?? []).sorted()
    }

    func testAttachmentsKeepTheirOrderTypeAndBytesAcrossReopening() throws {
        let fixture = try TaskStoreFixture(clock: clock)
        let task = try fixture.store.add(name: "Pay the plumber")
        let photo = bytes(300_000)
        let note = Data("paid in cash\n".utf8)
        try fixture.store.attach(photo, fileName: "receipt.JPG", to: task)
        try fixture.store.attach(note, fileName: "note.txt", to: task)
        try fixture.store.attach(Data(), fileName: "empty", mediaType: "application/x-empty", to: task)

        let reopened = try fixture.reopen(stagesSampleData: false)
        let attachments = try reopened.task(withReference: try XCTUnwrap(task.referenceNumber)).attachments
        XCTAssertEqual(attachments.map(\.fileName), ["receipt.JPG", "note.txt", "empty"])
        XCTAssertEqual(attachments.map(\.mediaType), ["image/jpeg", "text/plain", "application/x-empty"])
        XCTAssertEqual(attachments.map(\.size), [300_000, note.count, 0])
        XCTAssertEqual(attachments.map(\.createdAt), Array(repeating: isoDate("2026-11-21T09:00:00.000Z"), count: 3))
        XCTAssertEqual(try attachments.map { try $0.readContents() }, [photo, note, Data()])
        XCTAssertEqual(try reopened.attachment(2, of: attachments[0].task!).fileName, "note.txt")
        XCTAssertEqual(externalFiles(fixture).count, 1, "only the value above 100 KB is a file")
    }

    func testAFiveMegabytePhotoLivesOutsideTheDatabaseFile() throws {
        let fixture = try TaskStoreFixture(clock: clock)
        let task = try fixture.store.add(name: "Frame the photo")
        let photo = bytes(5_000_000)
        try fixture.store.attach(photo, fileName: "beach.png", to: task)
        let files = externalFiles(fixture)
        XCTAssertEqual(files.count, 1)
        let file = fixture.url.path + "-external/" + files[0]
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), photo, "the file holds the bytes, nothing else")
        XCTAssertLessThan(fixture.fileBytes().count, 1_000_000, "the database file and its WAL hold a reference, not 5 MB")
        let reopened = try fixture.reopen(stagesSampleData: false)
        XCTAssertEqual(try reopened.task(withReference: try XCTUnwrap(task.referenceNumber)).attachments.first?.readContents(), photo)
    }

    func testDetachingAndRemovingTheTaskRemoveTheFiles() throws {
        let fixture = try TaskStoreFixture(clock: clock)
        let store = fixture.store
        let first = try store.add(name: "First")
        let second = try store.add(name: "Second")
        try store.attach(bytes(200_000, seed: 1), fileName: "a.bin", to: first)
        try store.attach(bytes(200_000, seed: 2), fileName: "b.bin", to: first)
        try store.attach(bytes(200_000, seed: 3), fileName: "c.bin", to: second)
        XCTAssertEqual(externalFiles(fixture).count, 3)

        try store.detach(try store.attachment(1, of: first))
        XCTAssertEqual(first.attachments.map(\.fileName), ["b.bin"], "the ones after it move up")
        XCTAssertEqual(externalFiles(fixture).count, 2, "the detached file is gone once the save commits")

        try store.remove([first])
        XCTAssertEqual(externalFiles(fixture).count, 1, "removing a task removes its attachments' files")
        XCTAssertEqual(try fixture.store.context.count(for: FetchRequest<Attachment>()), 1)
        try store.remove([second])
        XCTAssertEqual(externalFiles(fixture), [], "the last file gone, the folder is empty")
    }

    func testBadInputIsOneClearErrorAndChangesNothing() throws {
        let fixture = try TaskStoreFixture(clock: clock)
        let store = fixture.store
        let task = try store.add(name: "Scan the form")
        try store.attach(Data("x".utf8), fileName: "x.txt", to: task)
        let before = fixture.fileBytes()
        func message(_ body: () throws -> Void) -> String? {
            do {
                try body()
                return nil
            } catch let error as PersistError {
                return error.message
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(message { try store.attach(Data(), fileName: "", to: task) }, "an attachment's file name cannot be empty")
        XCTAssertEqual(message { try store.attach(Data(), fileName: "a/b.txt", to: task) },
                       "an attachment's file name must be a name, not a path")
        XCTAssertEqual(message { try store.attach(Data(), fileName: "bell\u{7}.txt", to: task) },
                       "an attachment's file name cannot hold control characters")
        XCTAssertEqual(message { try store.attach(Data(), fileName: String(repeating: "é", count: 200), to: task) },
                       "an attachment's file name can be at most 255 bytes long (this one has 400)")
        XCTAssertEqual(message { try store.attach(Data(), fileName: "a.bin", mediaType: "image", to: task) },
                       "\"image\" is not a media type (like image/jpeg)")
        XCTAssertEqual(message { try store.attach(Data(count: Attachment.maximumSize + 1), fileName: "big.bin", to: task) },
                       "an attachment can hold at most 100 MB (big.bin has 100.0 MB)")
        XCTAssertEqual(message { _ = try store.attachment(2, of: task) }, "task \(task.reference) has no attachment 2 (it has 1)")
        XCTAssertEqual(message { _ = try store.attachment(0, of: task) }, "task \(task.reference) has no attachment 0 (it has 1)")
        XCTAssertEqual(fixture.fileBytes(), before, "nothing was written")
        XCTAssertEqual(task.attachments.count, 1)
        XCTAssertFalse(store.context.hasChanges)
    }

    func testAMissingFileIsAnErrorWhenRead() throws {
        let fixture = try TaskStoreFixture(clock: clock)
        let task = try fixture.store.add(name: "Keep the folder")
        try fixture.store.attach(bytes(150_000), fileName: "scan.pdf", to: task)
        for name in externalFiles(fixture) { try FileManager.default.removeItem(atPath: fixture.url.path + "-external/" + name) }
        let reopened = try fixture.reopen(stagesSampleData: false)
        let attachment = try XCTUnwrap(try reopened.task(withReference: task.referenceNumber!).attachments.first)
        XCTAssertThrowsError(try attachment.readContents()) { error in
            XCTAssertEqual((error as? PersistError)?.code, .externalDataUnavailable)
            XCTAssertTrue((error as? PersistError)?.message.contains("is missing") ?? false, "\(error)")
        }
        XCTAssertThrowsError(try reopened.exportDocument(), "an export never leaves out what it cannot read") { error in
            XCTAssertEqual((error as? PersistError)?.code, .externalDataUnavailable)
        }
    }

    func testAnExportCarriesTheBytesInBase64AndAnImportRestoresThemExactly() throws {
        let source = try TaskStoreFixture(clock: clock)
        let task = try source.store.add(name: "Renew the passport")
        let photo = bytes(400_000), form = Data("name: me\n".utf8)
        try source.store.attach(photo, fileName: "photo.jpg", to: task)
        try source.store.attach(form, fileName: "form.txt", to: task)
        _ = try source.store.add(name: "No files")
        let data = try source.store.exportDocument()
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let records = try XCTUnwrap(json["tasks"] as? [[String: Any]])
        let files = try XCTUnwrap(records.first { $0["name"] as? String == "Renew the passport" }?["attachments"] as? [[String: Any]])
        XCTAssertEqual(files.map { $0["fileName"] as? String }, ["photo.jpg", "form.txt"])
        XCTAssertEqual(files.map { $0["size"] as? Int }, [400_000, form.count])
        XCTAssertEqual(files[1]["contents"] as? String, form.base64EncodedString())
        XCTAssertEqual(files[1]["mediaType"] as? String, "text/plain")
        XCTAssertEqual(files[1]["createdAt"] as? String, "2026-11-21T09:00:00.000Z")

        let target = try TaskStoreFixture(clock: clock)
        XCTAssertEqual(try target.store.importDocument(data), ImportResult(imported: 2, skipped: 0))
        let reopened = try target.reopen(stagesSampleData: false)
        let restored = try XCTUnwrap(try reopened.tasks().first { $0.name == "Renew the passport" })
        XCTAssertEqual(try restored.attachments.map { try $0.readContents() }, [photo, form])
        XCTAssertEqual(restored.attachments.map(\.mediaType), ["image/jpeg", "text/plain"])
        XCTAssertEqual(externalFiles(target).count, 1)
        XCTAssertEqual(try target.store.importDocument(data), ImportResult(imported: 0, skipped: 2), "duplicates skipped with their files")
        XCTAssertEqual(externalFiles(target).count, 1)
        XCTAssertEqual(try TaskDocument(data: try target.store.exportDocument()).tasks, try TaskDocument(data: data).tasks,
                       "exported again, the same records")
    }

    func testAnImportRefusesDamagedAttachmentsNamingThem() throws {
        let created = "2026-11-20T09:00:00.000Z"
        func document(_ attachment: String) -> Data {
            Data("""
                {"format": "tasks", "version": 3, "exportedAt": "\(created)",
                 "tasks": [{"name": "T", "createdAt": "\(created)", "attachments": [\(attachment)]}]}
                """.utf8)
        }
        func message(_ data: Data) -> String? {
            do {
                let parsed = try TaskDocument(data: data)
                try parsed.validate()
                return nil
            } catch {
                return (error as? PersistError)?.message
            }
        }
        let good = #""fileName": "a.txt", "mediaType": "text/plain", "createdAt": "\#(created)""#
        XCTAssertNil(message(document("{\(good), \"size\": 2, \"contents\": \"aGk=\"}")))
        XCTAssertEqual(message(document("{\(good), \"size\": 2, \"contents\": \"not base64!\"}")),
                       "not a valid task export (contents of attachment 1 of task 1: it is not base64)")
        XCTAssertEqual(message(document("{\(good), \"size\": 3, \"contents\": \"aGk=\"}")),
                       "not a valid task export (contents of attachment 1 of task 1: it holds 2 bytes, not the 3 its size says)")
        XCTAssertEqual(message(document("{\(good), \"contents\": \"aGk=\"}")),
                       "not a valid task export (size of attachment 1 of task 1 is missing)")
        XCTAssertEqual(message(document(#"{"fileName": "../a", "mediaType": "text/plain", "createdAt": "\#(created)", "size": 0, "contents": ""}"#)),
                       "not a valid task export (task 1: attachment 1: an attachment's file name must be a name, not a path)")
    }
}
