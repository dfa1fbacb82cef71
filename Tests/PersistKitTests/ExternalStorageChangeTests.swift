import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// `.externalStorage` values through every way rows change: batch requests and their
/// cascades, persistent history, and other contexts' and containers' saves.
final class ExternalStorageChangeTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var url: URL!

    override func setUp() {
        directory = TemporaryDirectory()
        url = directory.file("photos.sqlite")
    }

    override func tearDown() {
        directory = nil
    }

    private func container() throws -> PersistentContainer {
        try PersistentContainer(model: ManagedObjectModel(entities: photoEntities), store: .sqlite(url))
    }

    /// Two albums of three large photos each, and large covers, saved.
    @discardableResult
    private func albums(in context: ManagedObjectContext) throws -> [PhotoAlbum] {
        let albums = (0..<2).map { index in
            let album = PhotoAlbum(context: context)
            album.title = "album \(index)"
            album.cover = sampleBytes(150_000, seed: UInt8(index))
            for number in 0..<3 {
                let photo = Photo(context: context)
                photo.caption = "photo \(index).\(number)"
                photo.bytes = sampleBytes(2_000 + number, seed: UInt8(10 * index + number))
                photo.album = album
            }
            return album
        }
        try context.save()
        XCTAssertEqual(externalFiles(of: url).count, 8)
        return albums
    }

    func testABatchDeleteRemovesTheFilesOfItsRowsAndOfItsCascades() throws {
        let context = try container().newContext()
        try albums(in: context)
        try context.execute(BatchDeleteRequest<PhotoAlbum>(predicate: \.title == "album 0"))
        XCTAssertEqual(externalFiles(of: url).count, 4, "the album's cover and its three photos' files are gone")
        XCTAssertEqual(externalFiles(of: url), try referencedFiles(url))
        try context.execute(BatchDeleteRequest<Photo>())
        XCTAssertEqual(externalFiles(of: url).count, 1, "every photo's file is gone (a DELETE of the whole table)")
        try context.execute(BatchDeleteRequest<PhotoAlbum>())
        XCTAssertEqual(externalFiles(of: url), [])
    }

    func testACascadeOfAContextSaveRemovesTheFiles() throws {
        let context = try container().newContext()
        let saved = try albums(in: context)
        context.delete(saved[1])
        try context.save()
        XCTAssertEqual(externalFiles(of: url).count, 4)
        XCTAssertEqual(externalFiles(of: url), try referencedFiles(url))
    }

    func testABatchUpdateSetsNilOrSmallValuesAndRefusesLargeOnes() throws {
        let context = try container().newContext()
        try albums(in: context)
        let refused = try XCTUnwrap(expectPersistError(try context.execute(BatchUpdateRequest<PhotoAlbum>(
            propertiesToUpdate: ["cover": sampleBytes(200_000)])), [.invalidRequest]))
        XCTAssertTrue(refused.message.contains("cover is stored externally"), refused.message)
        XCTAssertEqual(externalFiles(of: url).count, 8, "nothing changed")
        try context.execute(BatchUpdateRequest<PhotoAlbum>(predicate: \.title == "album 1", propertiesToUpdate: ["cover": nil]))
        try context.execute(BatchUpdateRequest<Photo>(predicate: \.caption == "photo 0.0", propertiesToUpdate: ["bytes": Data([1, 2, 3])]))
        XCTAssertEqual(externalFiles(of: url).count, 6, "the replaced values' files are gone")
        XCTAssertEqual(externalFiles(of: url), try referencedFiles(url))
        let fresh = try container().newContext()
        XCTAssertEqual(try fresh.fetch(FetchRequest<Photo>(predicate: \.caption == "photo 0.0")).first?.bytes, Data([1, 2, 3]))
        XCTAssertNil(try fresh.fetch(FetchRequest<PhotoAlbum>(predicate: \.title == "album 1")).first?.cover)
    }

    func testABatchInsertWritesLargeValuesToFiles() throws {
        let context = try container().newContext()
        let result = try context.execute(BatchInsertRequest<Photo>(objects: [
            ["caption": "big", "bytes": sampleBytes(10_000)],
            ["caption": "small", "bytes": Data([7])],
            ["caption": "same bytes", "bytes": sampleBytes(10_000)],
        ]))
        XCTAssertEqual(result.objectIDs.count, 3)
        XCTAssertEqual(externalFiles(of: url).count, 2, "one file per row, even for equal values")
        XCTAssertEqual(externalFiles(of: url), try referencedFiles(url))
        let reader = try container().newContext()   // held: objects read their files through their context
        let photos = try reader.fetch(FetchRequest<Photo>(sortBy: [.init(\.caption)]))
        XCTAssertEqual(photos.map(\.bytes), [sampleBytes(10_000), sampleBytes(10_000), Data([7])])
    }

    func testHistoryRecordsTheKeyNotTheBytes() throws {
        let container = try container()
        let context = container.newContext()
        let photo = Photo(context: context)
        photo.caption = "history"
        photo.bytes = sampleBytes(3_000_000)
        try context.save()
        let token = try container.history(after: nil).last?.token
        photo.bytes = sampleBytes(3_000_000, seed: 5)
        try context.save()
        let changes = try container.history(after: token).flatMap(\.changes)
        XCTAssertEqual(changes.map(\.kind), [.update])
        XCTAssertEqual(changes.first?.changedKeys, ["bytes"])
        // The store file holds references and history records, not the values.
        let connection = try SQLiteConnection(path: url.path, configuration: .init())
        let history = try connection.singleInt("SELECT sum(length(CAST(changes AS BLOB))) FROM _persistkit_history") ?? 0
        XCTAssertLessThan(history, 1_000, "the history holds no bytes of the values")
        let pages = try connection.singleInt("PRAGMA page_count") ?? 0
        let pageSize = try connection.singleInt("PRAGMA page_size") ?? 0
        XCTAssertLessThan(pages * pageSize, 1_000_000, "the database holds references, not the 3 MB values")
    }

    func testAnotherContextSeesTheNewValueAndAStaleReadCatchesUp() throws {
        let container = try container()
        let writer = container.newContext()
        let photo = Photo(context: writer)
        photo.caption = "shared"
        photo.bytes = sampleBytes(4_000, seed: 1)
        try writer.save()
        let reader = container.newContext()
        let seen = try XCTUnwrap(reader.fetch(FetchRequest<Photo>()).first)   // its bytes not read yet
        photo.bytes = sampleBytes(4_000, seed: 2)
        try writer.save()   // the file `seen` names is gone now
        XCTAssertEqual(seen.bytes, sampleBytes(4_000, seed: 2), "the read takes the row as it is now, as a merge would")
        XCTAssertFalse(seen.hasChanges)

        // Without merging, the read says what happened.
        let still = container.newContext()
        still.automaticallyMergesChanges = false
        let old = try XCTUnwrap(still.fetch(FetchRequest<Photo>()).first)
        photo.bytes = sampleBytes(4_000, seed: 3)
        try writer.save()
        XCTAssertEqual(old.bytes, Data(), "a value that cannot be read reads as empty data")
        let error = try XCTUnwrap(expectPersistError(try old.value(forKey: "bytes"), [.externalDataUnavailable]))
        XCTAssertTrue(error.message.contains("replaced or deleted by another context"), error.message)
        XCTAssertEqual(error.objectIDs, [old.objectID])
        XCTAssertEqual(error.attribute, "bytes")
        still.refresh(old, mergeChanges: false)
        XCTAssertEqual(old.bytes, sampleBytes(4_000, seed: 3))
    }

    func testAnotherContainerOnTheFileMergesFromTheHistory() throws {
        let first = try container(), second = try container()
        let writer = first.newContext(), reader = second.newContext()
        let photo = Photo(context: writer)
        photo.caption = "two containers"
        photo.bytes = sampleBytes(8_000, seed: 1)
        try writer.save()
        let seen = try XCTUnwrap(reader.fetch(FetchRequest<Photo>()).first)
        XCTAssertEqual(seen.bytes, sampleBytes(8_000, seed: 1))
        photo.bytes = sampleBytes(8_000, seed: 2)
        try writer.save()
        reader.processPendingChanges()
        XCTAssertEqual(seen.bytes, sampleBytes(8_000, seed: 2), "merged: the new reference, then its file")
        XCTAssertNil(seen.loadedExternalValues?.values.first { $0.data == sampleBytes(8_000, seed: 1) }, "the old bytes are let go")
        // Changes made on both sides to other keys merge; the value stays.
        seen.caption = "renamed in the reader"
        try reader.save()
        XCTAssertEqual(externalFiles(of: url), try referencedFiles(url))
        XCTAssertEqual(externalFiles(of: url).count, 1)
    }

    func testKeyValueAccessAndCommittedValuesReadTheFiles() throws {
        let context = try container().newContext()
        let photo = Photo(context: context)
        photo.caption = "kv"
        photo.bytes = sampleBytes(2_500)
        try context.save()
        let reader = try container().newContext()
        let fetched = try XCTUnwrap(try reader.fetch(FetchRequest<Photo>()).first)
        XCTAssertEqual(try fetched.value(forKey: "bytes") as? Data, sampleBytes(2_500))
        try fetched.setValue(sampleBytes(2_600, seed: 3), forKey: "bytes")
        XCTAssertEqual(fetched.committedValues(forKeys: ["bytes"])["bytes"] as? Data, sampleBytes(2_500))
        XCTAssertEqual(fetched.changedValues()["bytes"] as? Data, sampleBytes(2_600, seed: 3))
        XCTAssertTrue(fetched.description.contains("bytes: <2600 bytes>"), fetched.description)
        try reader.save()
        XCTAssertTrue(fetched.description.contains("<2600 bytes in a file>"), fetched.description)
    }
}
