import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// The files of `.externalStorage` values: missing or damaged ones are clear errors, the
/// sweep at open removes what no row names (never in a read-only store), an in-memory store
/// keeps every value in its rows, and a 20 MB value makes the round trip.
final class ExternalStorageFileTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var url: URL!

    override func setUp() {
        directory = TemporaryDirectory()
        url = directory.file("photos.sqlite")
    }

    override func tearDown() {
        directory = nil
    }

    private func container(readOnly: Bool = false) throws -> PersistentContainer {
        try PersistentContainer(model: ManagedObjectModel(entities: photoEntities), store: .sqlite(url, readOnly: readOnly))
    }

    /// Saves photos with large values; returns their file names by caption.
    private func savePhotos(_ captions: [String]) throws -> [String: String] {
        let context = try container().newContext()
        for (index, caption) in captions.enumerated() {
            let photo = Photo(context: context)
            photo.caption = caption
            photo.bytes = sampleBytes(5_000 + index, seed: UInt8(index))
        }
        try context.save()
        var files: [String: String] = [:]
        for photo in try context.fetch(FetchRequest<Photo>()) {
            guard case .text(let reference) = photo.storage[1] else { continue }
            files[photo.caption] = String(reference.prefix(36))
        }
        return files
    }

    func testAMissingOrDamagedFileIsAClearErrorNamingTheObjectAndAttribute() throws {
        let files = try savePhotos(["missing", "truncated", "intact"])
        let folder = externalFolder(of: url)
        try FileManager.default.removeItem(at: folder.appendingPathComponent(files["missing"]!))
        try Data([1, 2, 3]).write(to: folder.appendingPathComponent(files["truncated"]!))
        let context = try container().newContext()
        let photos = Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest<Photo>()).map { ($0.caption, $0) })
        let missing = try XCTUnwrap(photos["missing"]), truncated = try XCTUnwrap(photos["truncated"])

        XCTAssertEqual(missing.bytes, Data(), "the property never crashes: an unreadable value reads as empty data")
        let gone = try XCTUnwrap(expectPersistError(try missing.value(forKey: "bytes"), [.externalDataUnavailable]))
        XCTAssertEqual(gone.entity, "Photo")
        XCTAssertEqual(gone.attribute, "bytes")
        XCTAssertEqual(gone.objectIDs, [missing.objectID])
        XCTAssertTrue(gone.message.contains("is missing"), gone.message)
        XCTAssertTrue(gone.message.contains(files["missing"]!), "names the file: \(gone.message)")
        guard case .externalDataUnavailable(let entity, let key, let objects, let file) = gone.reason else {
            return XCTFail("\(gone.reason)")
        }
        XCTAssertEqual([entity, key], ["Photo", "bytes"])
        XCTAssertEqual(objects, [missing.objectID])
        XCTAssertEqual(file.map { URL(fileURLWithPath: $0).lastPathComponent }, files["missing"])

        XCTAssertEqual(truncated.bytes, Data())
        let damaged = try XCTUnwrap(expectPersistError(try truncated.value(forKey: "bytes"), [.externalDataUnavailable]))
        XCTAssertTrue(damaged.message.contains("damaged (it has 3 bytes"), damaged.message)
        XCTAssertEqual(photos["intact"]?.bytes, sampleBytes(5_002, seed: 2))

        // An optional attribute reads as nil; the save of another change still works.
        truncated.caption = "renamed"
        try context.save()
        XCTAssertTrue(externalFiles(of: url).contains(files["truncated"]!), "a damaged file is the user's to look at: kept")
    }

    func testAStoreWhoseFolderIsGoneStillOpensAndSaysWhatIsMissing() throws {
        _ = try savePhotos(["a"])
        try FileManager.default.removeItem(at: externalFolder(of: url))
        let context = try container().newContext()
        let photo = try XCTUnwrap(context.fetch(FetchRequest<Photo>()).first)
        expectError(try photo.value(forKey: "bytes"), .externalDataUnavailable) { error in
            XCTAssertTrue(error.message.contains("must be kept with the store file"), error.message)
        }
        photo.bytes = sampleBytes(9_000)
        try context.save()
        XCTAssertEqual(externalFiles(of: url).count, 1, "the folder is made again by the next file")
    }

    func testTheStoreCheckFindsMissingDamagedAndUnnamedFilesAndTakesReferencesForValues() throws {
        let files = try savePhotos(["missing", "truncated", "intact"])
        let model = try ManagedObjectModel(entities: photoEntities)
        XCTAssertEqual(try StoreInspector(url: url).valueProblems(against: model), [], "references are values of a binary attribute")
        let folder = externalFolder(of: url)
        try FileManager.default.removeItem(at: folder.appendingPathComponent(files["missing"]!))
        try Data([1, 2, 3]).write(to: folder.appendingPathComponent(files["truncated"]!))
        try Data("orphan".utf8).write(to: folder.appendingPathComponent(UUID().uuidString))
        let before = try directorySnapshot(folder)
        let problems = try StoreInspector(url: url).valueProblems(against: model)
        XCTAssertEqual(problems.count, 3, "\(problems)")
        XCTAssertTrue(problems.contains { $0.hasPrefix("external: Photo.bytes of Photo ") && $0.hasSuffix("\(files["missing"]!), which is missing") },
                      "\(problems)")
        XCTAssertTrue(problems.contains { $0.contains(files["truncated"]!) && $0.hasSuffix("which has 3 bytes, not the value's 5001") }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.hasPrefix("external: 1 file of ") && $0.contains("no row names") }, "\(problems)")
        assertSameFiles(before, try directorySnapshot(folder))
    }

    func testTheSweepAtOpenRemovesUnreferencedAndTemporaryFilesOnly() throws {
        let files = try savePhotos(["a", "b"])
        let folder = externalFolder(of: url)
        let orphan = UUID().uuidString, temporary = UUID().uuidString + ".tmp"
        for name in [orphan, temporary, "notes.txt"] {
            try Data("left behind".utf8).write(to: folder.appendingPathComponent(name))
        }
        _ = try container()
        XCTAssertEqual(externalFiles(of: url), Set(files.values).union(["notes.txt"]), "only PersistKit's own leftovers go")
        XCTAssertEqual(Set(files.values), try referencedFiles(url))
    }

    func testAReadOnlyOpenNeverSweeps() throws {
        _ = try savePhotos(["a"])
        let folder = externalFolder(of: url)
        try Data("orphan".utf8).write(to: folder.appendingPathComponent(UUID().uuidString))
        try Data("partial".utf8).write(to: folder.appendingPathComponent(UUID().uuidString + ".tmp"))
        let before = try directorySnapshot(folder)
        let storeBefore = try Data(contentsOf: url)
        do {
            let context = try container(readOnly: true).newContext()
            let photo = try XCTUnwrap(context.fetch(FetchRequest<Photo>()).first)
            XCTAssertEqual(photo.bytes, sampleBytes(5_000, seed: 0))
            photo.bytes = sampleBytes(6_000)
            expectError(try context.save(), .cannotOpenStore)
        }
        assertSameFiles(before, try directorySnapshot(folder))
        XCTAssertEqual(storeBefore, try Data(contentsOf: url), "the store file is as it was")
        _ = try container()
        XCTAssertEqual(externalFiles(of: url).count, 1, "the next writable open sweeps")
    }

    func testAStoreWithoutValuesInFilesHasNoFolder() throws {
        let context = try container().newContext()
        let photo = Photo(context: context)
        photo.caption = "small"
        photo.bytes = Data([1])
        try context.save()
        XCTAssertFalse(fileExists(externalFolder(of: url)))
        photo.bytes = sampleBytes(4_000)
        try context.save()
        XCTAssertTrue(fileExists(externalFolder(of: url)))
        context.delete(photo)
        try context.save()
        _ = try container()
        XCTAssertFalse(fileExists(externalFolder(of: url)), "an empty folder is removed by the sweep")
    }

    func testAnInMemoryStoreKeepsEveryValueInItsRow() throws {
        let container = try PersistentContainer(model: ManagedObjectModel(entities: photoEntities), store: .inMemory)
        let context = container.newContext()
        let photo = Photo(context: context)
        photo.caption = "memory"
        photo.bytes = sampleBytes(500_000)
        try context.save()
        XCTAssertEqual(photo.storage[1], .blob(sampleBytes(500_000)), "no reference: the value is in the row")
        let other = container.newContext()
        XCTAssertEqual(try other.fetch(FetchRequest<Photo>()).first?.bytes, sampleBytes(500_000))
        try other.execute(BatchUpdateRequest<Photo>(propertiesToUpdate: ["bytes": sampleBytes(300_000)]))
        XCTAssertEqual(try container.newContext().fetch(FetchRequest<Photo>()).first?.bytes, sampleBytes(300_000))
    }

    func testATwentyMegabyteValueRoundTrips() throws {
        let value = sampleBytes(20 * 1_024 * 1_024, seed: 42)
        do {
            let context = try container().newContext()
            let photo = Photo(context: context)
            photo.caption = "twenty megabytes"
            photo.bytes = value
            try context.save()
        }
        let names = externalFiles(of: url)
        XCTAssertEqual(names.count, 1)
        let file = externalFolder(of: url).appendingPathComponent(try XCTUnwrap(names.first))
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int, value.count)
        XCTAssertLessThan(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? .max, 1_000_000,
                          "the database holds the reference only")
        let context = try container().newContext()
        let photo = try XCTUnwrap(context.fetch(FetchRequest<Photo>()).first)
        XCTAssertEqual(photo.bytes, value)
        XCTAssertEqual(try Data(contentsOf: file), value, "the file is the value's bytes, nothing more")
    }
}
