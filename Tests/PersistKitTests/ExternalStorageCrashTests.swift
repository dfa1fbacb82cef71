import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A writer of `.externalStorage` values killed (SIGKILL) at random moments of its saves: each
/// time, every row's file is there with the row's bytes, and once the store is opened again
/// (and swept) no file is left that no row names, nor any half-written one.
final class ExternalStorageCrashTests: XCTestCase {
    static let childRole = "external-storage-writer"

    func testWriterKilledMidSaveLeavesNoMissingAndNoOrphanFile() throws {
        let name = "ExternalStorageCrashTests.testWriterKilledMidSaveLeavesNoMissingAndNoOrphanFile"
        let seed = testSeed(name)
        var generator = SeededGenerator(seed: seed)
        let kills = testSize(name, full: 60, ci: 20)
        let directory = TemporaryDirectory()
        let url = directory.file("killed.sqlite")
        let model = try ManagedObjectModel(entities: photoEntities)
        _ = try PersistentContainer(model: model, store: .sqlite(url))
        var acknowledged = 0, orphansSwept = 0, temporarySwept = 0, rowsChecked = 0
        for attempt in 0..<kills {
            let acks = directory.file("acks-\(attempt)").path
            let first = (attempt + 1) * 100_000
            let child = try ChildProcess.start(role: Self.childRole, settings: ["STORE": url.path, "ACKS": acks, "FIRST": String(first)])
            let deadline = Date().addingTimeInterval(60)
            while Self.acknowledgedSaves(acks).isEmpty && child.isRunning && Date() < deadline { usleep(500) }
            usleep(UInt32.random(in: 0...40_000, using: &generator))
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            XCTAssertEqual(child.terminationReason, .uncaughtSignal, "kill \(attempt): the child was killed, not done (seed \(seed))")
            let saves = Self.acknowledgedSaves(acks)
            XCTAssertFalse(saves.isEmpty, "kill \(attempt): the child saved before it was killed")
            acknowledged += saves.count

            // Before any open: every reference names a file of the value's size.
            let referencedBefore = try referencedFiles(url)
            let present = externalFiles(of: url)
            for reference in try storedReferences(url, table: "Photo", column: "bytes") {
                let file = String(reference.prefix(36))
                XCTAssertTrue(present.contains(file), "kill \(attempt): row's file \(file) is missing (seed \(seed))")
            }
            orphansSwept += present.filter { !$0.hasSuffix(".tmp") && !referencedBefore.contains($0) }.count
            temporarySwept += present.filter { $0.hasSuffix(".tmp") }.count

            // Opened (and swept): exactly the referenced files; every value reads back whole.
            let container = try PersistentContainer(model: model, store: .sqlite(url))
            XCTAssertEqual(externalFiles(of: url), try referencedFiles(url), "kill \(attempt): no unreferenced file after the sweep (seed \(seed))")
            let context = container.newContext()
            var newest = 0
            for photo in try context.fetch(FetchRequest<Photo>()) {
                let parts = photo.caption.split(separator: " ").compactMap { Int($0) }
                guard parts.count == 3 else { XCTFail("kill \(attempt): caption \(photo.caption)"); continue }
                newest = max(newest, parts[0])
                let expected = Self.bytes(save: parts[0], photo: parts[1], version: parts[2])
                if photo.bytes != expected {
                    XCTFail("kill \(attempt): \(photo.caption) reads \(photo.bytes.count) bytes, not its \(expected.count) (seed \(seed))")
                }
                rowsChecked += 1
            }
            XCTAssertGreaterThanOrEqual(newest, saves.max() ?? 0, "kill \(attempt): the last acknowledged save is there")
            try? FileManager.default.removeItem(atPath: acks)
        }
        print("ExternalStorageCrashTests: \(kills) kills, \(acknowledged) acknowledged saves, \(rowsChecked) rows checked, every file "
              + "present; the sweeps removed \(orphansSwept) files of saves killed before their commit (or before their removals) "
              + "and \(temporarySwept) half-written .tmp files")
    }

    /// A photo's bytes, from its caption's numbers: between 800 bytes (kept in the row) and
    /// about 97 KB.
    static func bytes(save: Int, photo: Int, version: Int) -> Data {
        sampleBytes(800 + (save * 7 + photo * 13 + version * 29) % 97 * 1_000, seed: UInt8(truncatingIfNeeded: save * 3 + photo * 5 + version * 11))
    }

    private static func acknowledgedSaves(_ path: String) -> [Int] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { Int($0) }
    }

    /// In a child: saves until killed. Save `s` inserts three photos (version 0), gives the
    /// previous save's photos new bytes (version 1), and deletes the photos of the save before
    /// that: files are written, replaced and removed in every save.
    static func playChild() -> Int32 {
        guard let path = ChildProcess.setting("STORE"), let acks = ChildProcess.setting("ACKS"),
              let first = ChildProcess.setting("FIRST").flatMap(Int.init),
              FileManager.default.createFile(atPath: acks, contents: nil), let file = FileHandle(forWritingAtPath: acks)
        else { return 2 }
        do {
            let container = try PersistentContainer(model: ManagedObjectModel(entities: photoEntities),
                                                    store: .sqlite(URL(fileURLWithPath: path)))
            let context = container.newContext()
            // Photos left by an earlier child are deleted by the first saves, as any other.
            var older = try context.fetch(FetchRequest<Photo>())
            var previous: [(photo: Photo, save: Int, index: Int)] = []
            for save in first..<(first + 50_000) {
                for photo in older { context.delete(photo) }
                for entry in previous {
                    entry.photo.caption = "\(entry.save) \(entry.index) 1"
                    entry.photo.bytes = bytes(save: entry.save, photo: entry.index, version: 1)
                }
                let inserted = (0..<3).map { index in
                    let photo = Photo(context: context)
                    photo.caption = "\(save) \(index) 0"
                    photo.bytes = bytes(save: save, photo: index, version: 0)
                    return (photo, save, index)
                }
                try context.save()
                file.write(Data("\(save)\n".utf8))
                older = previous.map(\.photo)
                previous = inserted
            }
        } catch {
            return 1
        }
        return 0
    }
}
