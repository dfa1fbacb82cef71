import Foundation
import PersistKitTestSupport
import XCTest

/// Issue 31: `tasks attach`, `attachments`, `attachment`, `detach`, and attachments through
/// `rm`, `export`/`import` and `watch`, as processes.
final class AttachmentCommandTests: XCTestCase {
    /// `count` bytes holding every byte value (NUL, CR, LF, invalid UTF-8 among them).
    private func binary(_ count: Int, seed: UInt8 = 0) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ $0 >> 11) &+ seed })
    }

    private func write(_ data: Data, _ name: String, in fixture: CLIFixture) throws -> String {
        let url = fixture.directory.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    private func externalFiles(_ fixture: CLIFixture) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: fixture.storeURL.path + "-external")) ?? []).sorted()
    }

    /// The bytes `tasks` writes to standard output, exactly (not decoded as text).
    private func standardOutputBytes(_ fixture: CLIFixture, _ arguments: [String]) throws -> (status: Int32, bytes: Data, stderr: String) {
        let url = fixture.directory.appendingPathComponent("out-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        let result = try fixture.run(arguments, standardOutput: handle)
        try handle.close()
        return (result.status, try Data(contentsOf: url), result.stderr)
    }

    func testAttachListGetAndDetachAsProcesses() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let task = try fixture.add("Pay the plumber")
        let photo = binary(5_000_000)
        let photoPath = try write(photo, "receipt.jpg", in: fixture)
        let notePath = try write(Data("paid in cash\n".utf8), "note.txt", in: fixture)

        XCTAssertEqual(try fixture.ok("attach", String(task), photoPath).stdout,
                       "Attached receipt.jpg to #\(task) \"Pay the plumber\" as attachment 1 (image/jpeg, 5.0 MB)\n")
        XCTAssertEqual(try fixture.ok("attach", "#\(task)", notePath, "--type", "text/plain; charset=utf-8").stdout,
                       "Attached note.txt to #\(task) \"Pay the plumber\" as attachment 2 (text/plain; charset=utf-8, 13 bytes)\n")

        // The 5 MB photo lives outside the database file: in one file of the folder beside it.
        let files = externalFiles(fixture)
        XCTAssertEqual(files.count, 1)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: fixture.storeURL.path + "-external/" + files[0])), photo)
        let sqliteSize = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: fixture.storeURL.path)[.size] as? Int)
        XCTAssertLessThan(sqliteSize + fixture.storeBytes().count, 2_000_000, "the .sqlite file and its WAL hold no 5 MB")

        let listed = try fixture.ok("attachments", String(task)).lines
        XCTAssertEqual(listed.count, 3)
        XCTAssertEqual(listed[0], "#\(task) \"Pay the plumber\": 2 attachments")
        // Aligned columns: number, name, media type, size (right-aligned), when attached.
        XCTAssertTrue(listed[1].hasPrefix("  1  receipt.jpg  image/jpeg" + String(repeating: " ", count: 15) + "    5.0 MB  "), listed[1])
        XCTAssertTrue(listed[2].hasPrefix("  2  note.txt     text/plain; charset=utf-8  13 bytes  "), listed[2])
        let json = try JSONSerialization.jsonObject(with: Data(try fixture.ok("attachments", String(task), "--json").stdout.utf8))
        let entries = try XCTUnwrap((json as? [String: Any])?["attachments"] as? [[String: Any]])
        XCTAssertEqual((json as? [String: Any])?["task"] as? Int, Int(task))
        XCTAssertEqual(entries.map { $0["number"] as? Int }, [1, 2])
        XCTAssertEqual(entries.map { $0["size"] as? Int }, [5_000_000, 13])
        XCTAssertEqual(entries.map { $0["fileName"] as? String }, ["receipt.jpg", "note.txt"])

        // Standard output gets the bytes exactly; --output writes them to a file.
        let out = try standardOutputBytes(fixture, ["attachment", String(task), "1"])
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertEqual(out.bytes, photo, "binary exact on standard output")
        let copy = fixture.directory.appendingPathComponent("copy.jpg").path
        XCTAssertEqual(try fixture.ok("attachment", String(task), "1", "--output", copy).stdout, "Wrote receipt.jpg (5.0 MB) to \(copy)\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: copy)), photo)
        XCTAssertEqual(try fixture.ok("attachment", String(task), "2").stdout, "paid in cash\n")

        XCTAssertEqual(try fixture.ok("detach", String(task), "1").stdout, "Detached receipt.jpg from #\(task) \"Pay the plumber\"\n")
        XCTAssertEqual(externalFiles(fixture), [], "the photo's file is gone once the detach is saved")
        XCTAssertEqual(try fixture.ok("attachment", String(task), "1").stdout, "paid in cash\n", "the note is number 1 now")
        XCTAssertEqual(try fixture.ok("rm", String(task)).stdout, "Removed #\(task) \"Pay the plumber\" and its 1 attachment\n")
    }

    func testTaskRemovalRemovesTheFiles() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let first = try fixture.add("First")
        let second = try fixture.add("Second")
        try fixture.ok("attach", String(first), try write(binary(300_000, seed: 1), "a.png", in: fixture))
        try fixture.ok("attach", String(first), try write(binary(300_000, seed: 2), "b.png", in: fixture))
        try fixture.ok("attach", String(second), try write(binary(300_000, seed: 3), "c.png", in: fixture))
        XCTAssertEqual(externalFiles(fixture).count, 3)
        XCTAssertEqual(try fixture.ok("rm", String(first)).stdout, "Removed #\(first) \"First\" and its 2 attachments\n")
        XCTAssertEqual(externalFiles(fixture).count, 1, "the removed task's files are gone after the save")
        XCTAssertEqual(try fixture.ok("attachments", String(second)).lines.count, 2)
    }

    func testErrorsAreOneLineAndChangeNothing() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let task = try fixture.add("Scan the form")
        let file = try write(Data("x".utf8), "form.txt", in: fixture)
        try fixture.ok("attach", String(task), file)
        let missing = fixture.directory.appendingPathComponent("nope.jpg").path
        try fixture.fails(["attach", String(task), missing], status: 1, message: "cannot read \(missing): no such file or directory")
        try fixture.fails(["attach", String(task), fixture.directory.path], status: 1,
                          message: "cannot read \(fixture.directory.path): it is a directory")
        let locked = try write(Data("secret".utf8), "locked.txt", in: fixture)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: locked)
        if getuid() != 0 {   // root reads every file
            try fixture.fails(["attach", String(task), locked], status: 1, message: "cannot read \(locked): permission denied")
        }
        try fixture.fails(["attach", "999", file], status: 1, message: "no task #999")
        try fixture.fails(["attach", String(task), file, "--type", "jpeg"], status: 64,
                          message: "\"jpeg\" is not a media type (like image/jpeg)")
        try fixture.fails(["attachment", String(task), "2"], status: 1, message: "task #\(task) has no attachment 2 (it has 1)")
        try fixture.fails(["attachment", String(task), "0"], status: 64,
                          message: "'0' is not an attachment number (try 1: tasks attachments REF lists them)")
        try fixture.fails(["detach", String(task), "x"], status: 64,
                          message: "'x' is not an attachment number (try 1: tasks attachments REF lists them)")
        try fixture.fails(["detach", String(task), "3"], status: 1, message: "task #\(task) has no attachment 3 (it has 1)")
        let other = try fixture.add("Nothing attached")
        try fixture.fails(["attachment", String(other), "1"], status: 1, message: "task #\(other) has no attachment 1 (it has none)")
        XCTAssertEqual(try fixture.ok("attachments", String(other)).stdout, "#\(other) \"Nothing attached\" has no attachments\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.directory.appendingPathComponent("out.bin").path))
        try fixture.fails(["attachment", String(task), "1", "--output", fixture.directory.path], status: 1,
                          message: "cannot write \(fixture.directory.path): it is a directory")
    }

    /// Binary bytes are refused on a terminal (they would garble it); text is shown.
    func testBinaryIsNotWrittenToATerminal() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let task = try fixture.add("Print the ticket")
        try fixture.ok("attach", String(task), try write(binary(1_000), "ticket.pdf", in: fixture))
        try fixture.ok("attach", String(task), try write(Data("Gate 4\n".utf8), "gate.txt", in: fixture))
        let tasks = try XCTUnwrap(TasksBinary.url)
        let environment = fixture.environment(["NO_COLOR": "1"])
        let refused = try runOnTerminal(tasks, ["attachment", String(task), "1"], environment: environment)
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.text.replacingOccurrences(of: "\r\n", with: "\n"),
                       "tasks: attachment 1 of #\(task) is application/pdf, not text: redirect standard output or give --output FILE\n")
        let shown = try runOnTerminal(tasks, ["attachment", String(task), "2"], environment: environment)
        XCTAssertEqual(shown.status, 0)
        XCTAssertEqual(shown.text.replacingOccurrences(of: "\r\n", with: "\n"), "Gate 4\n")
    }

    /// A backup round trip: export, import into a new store, and every attachment's bytes come
    /// back the same, in base64 inside the JSON.
    func testABackupRestoresAttachmentsByteForByte() throws {
        let source = try CLIFixture()
        try source.makeEmptyStore()
        let task = try source.add("Renew the passport")
        let photo = binary(1_500_000, seed: 9)
        let form = binary(2_000, seed: 4)
        try source.ok("attach", String(task), try write(photo, "photo.jpg", in: source))
        try source.ok("attach", String(task), try write(form, "form.pdf", in: source))
        let backup = source.directory.appendingPathComponent("backup.json").path
        try source.ok("export", backup)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: backup))) as? [String: Any])
        let record = try XCTUnwrap((document["tasks"] as? [[String: Any]])?.first)
        let attachments = try XCTUnwrap(record["attachments"] as? [[String: Any]])
        XCTAssertEqual(attachments.compactMap { $0["contents"] as? String }.compactMap { Data(base64Encoded: $0) }, [photo, form])

        let restored = source.directory.appendingPathComponent("restored/tasks.sqlite").path
        XCTAssertEqual(try source.ok("import", backup, "--store", restored).stdout, "Imported 1 task\n")
        let listed = try source.ok("attachments", "1", "--store", restored).lines
        XCTAssertEqual(listed.count, 3, listed.joined(separator: "\n"))
        for (number, expected) in [(1, photo), (2, form)] {
            let out = try standardOutputBytes(source, ["attachment", "1", String(number), "--store", restored])
            XCTAssertEqual(out.status, 0, out.stderr)
            XCTAssertEqual(out.bytes, expected, "attachment \(number) restored byte for byte")
        }
        XCTAssertEqual(((try? FileManager.default.contentsOfDirectory(atPath: restored + "-external")) ?? []).count, 1,
                       "the restored photo lives outside the database too")
    }

    func testWatchShowsAttachAndDetach() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let task = try fixture.add("Fix the gate", "--due", "2030-01-01")
        let watch = try RunningTasks(fixture, ["watch"])
        XCTAssertTrue(watch.wait(timeout: 10) { $0.contains("Complete (0)") }, watch.text)
        let listed = watch.text

        try fixture.ok("attach", String(task), try write(binary(200_000), "hinge.jpg", in: fixture))
        let attached = "~ #\(task) \"Fix the gate\" attached hinge.jpg\n"
        XCTAssertTrue(watch.wait(timeout: 5) { $0.contains(attached) }, watch.text)
        try fixture.ok("detach", String(task), "1")
        let detached = "~ #\(task) \"Fix the gate\" detached hinge.jpg\n"
        XCTAssertTrue(watch.wait(timeout: 5) { $0.contains(detached) }, watch.text)
        try fixture.ok("attach", String(task), try write(Data("b".utf8), "b.txt", in: fixture))
        XCTAssertTrue(watch.wait(timeout: 5) { $0.contains("attached b.txt\n") }, watch.text)
        try fixture.ok("rm", String(task))
        XCTAssertTrue(watch.wait(timeout: 5) { $0.contains("- #\(task)\n") }, watch.text)
        XCTAssertEqual(String(watch.text.dropFirst(listed.count)),
                       attached + detached + "~ #\(task) \"Fix the gate\" attached b.txt\n- #\(task)\n",
                       "one line per change; a removed task's attachments are its one line")
        XCTAssertEqual(watch.interrupt(), 0)
    }
}
