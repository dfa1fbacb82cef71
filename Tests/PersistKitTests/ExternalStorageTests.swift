import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// `.externalStorage`: large values in files beside the store, small ones in the row; read
/// when the property is; files written before the commit and removed after the one that lets
/// them go.
final class ExternalStorageTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var url: URL!

    override func setUp() {
        directory = TemporaryDirectory()
        url = directory.file("photos.sqlite")
    }

    override func tearDown() {
        directory = nil
    }

    private func container(_ entities: [ManagedObject.Type] = photoEntities) throws -> PersistentContainer {
        try PersistentContainer(model: ManagedObjectModel(entities: entities), store: .sqlite(url))
    }

    func testLargeValuesGoToFilesAndSmallOnesStayInTheRow() throws {
        let context = try container().newContext()
        let album = PhotoAlbum(context: context)
        album.title = "Summer"
        album.cover = sampleBytes(200_000)
        let small = Photo(context: context)
        small.caption = "small"
        small.bytes = sampleBytes(1_024, seed: 2)   // the threshold itself: in the row
        let large = Photo(context: context)
        large.caption = "large"
        large.bytes = sampleBytes(1_025, seed: 3)
        try context.save()

        let files = externalFiles(of: url)
        XCTAssertEqual(files.count, 2, "the cover and the large photo have files: \(files)")
        XCTAssertEqual(files, try referencedFiles(url))
        XCTAssertEqual(try storedReferences(url, table: "Photo", column: "bytes").map { $0.split(separator: ":")[1] }, ["1025"])
        for name in files {
            XCTAssertNotNil(UUID(uuidString: name), "\(name) is a UUID")
            XCTAssertFalse(name.hasSuffix(".tmp"))
        }
        // The values read back, in this context and in a fresh one.
        XCTAssertEqual(album.cover, sampleBytes(200_000))
        XCTAssertEqual(large.bytes, sampleBytes(1_025, seed: 3))
        let fresh = try container().newContext()
        let photos = try fresh.fetch(FetchRequest<Photo>(sortBy: [.init(\.caption)]))
        XCTAssertEqual(photos.map(\.bytes), [sampleBytes(1_025, seed: 3), sampleBytes(1_024, seed: 2)])
        XCTAssertEqual(try fresh.fetch(FetchRequest<PhotoAlbum>()).first?.cover, sampleBytes(200_000))
    }

    func testAFetchReadsNoFileUntilTheValueIsRead() throws {
        let context = try container().newContext()
        for index in 0..<3 {
            let photo = Photo(context: context)
            photo.caption = "photo \(index)"
            photo.bytes = sampleBytes(50_000, seed: UInt8(index))
        }
        try context.save()
        let reader = try container().newContext()
        let photos = try reader.fetch(FetchRequest<Photo>(sortBy: [.init(\.caption)]))
        for photo in photos {
            XCTAssertNil(photo.loadedExternalValues, "fetched without its bytes")
            guard case .text(let reference) = photo.storage[1] else { return XCTFail("the slot holds the row's reference") }
            XCTAssertEqual(reference.split(separator: ":").last, "50000")
        }
        XCTAssertEqual(photos[1].bytes, sampleBytes(50_000, seed: 1))
        XCTAssertEqual(photos[1].loadedExternalValues?.count, 1, "kept once read")
        XCTAssertNil(photos[0].loadedExternalValues)
        // Refreshing lets the bytes go; reading again reads the file again.
        reader.refresh(photos[1], mergeChanges: false)
        XCTAssertNil(photos[1].loadedExternalValues)
        XCTAssertEqual(photos[1].bytes, sampleBytes(50_000, seed: 1))
        XCTAssertFalse(photos[1].hasChanges, "reading a value is no change")
    }

    func testReplacingAValueRemovesTheOldFileAfterTheCommit() throws {
        let context = try container().newContext()
        let photo = Photo(context: context)
        photo.caption = "a"
        photo.bytes = sampleBytes(5_000)
        try context.save()
        let first = externalFiles(of: url)
        XCTAssertEqual(first.count, 1)
        photo.bytes = sampleBytes(6_000, seed: 9)
        try context.save()
        let second = externalFiles(of: url)
        XCTAssertEqual(second.count, 1)
        XCTAssertTrue(second.isDisjoint(with: first), "a new value is a new file; the old one is gone")
        photo.bytes = Data("small".utf8)
        try context.save()
        XCTAssertEqual(externalFiles(of: url), [], "a small value goes back into the row; its file goes")
        XCTAssertEqual(try container().newContext().fetch(FetchRequest<Photo>()).first?.bytes, Data("small".utf8))
        photo.bytes = sampleBytes(7_000)
        try context.save()
        // Changing another attribute leaves the file alone.
        photo.caption = "b"
        try context.save()
        XCTAssertEqual(externalFiles(of: url), try referencedFiles(url))
        XCTAssertEqual(externalFiles(of: url).count, 1)
    }

    func testDeletingAnObjectRemovesItsFile() throws {
        let context = try container().newContext()
        let photos = (0..<3).map { index in
            let photo = Photo(context: context)
            photo.caption = "\(index)"
            photo.bytes = sampleBytes(4_000, seed: UInt8(index))
            return photo
        }
        try context.save()
        XCTAssertEqual(externalFiles(of: url).count, 3)
        context.delete(photos[0])
        XCTAssertEqual(externalFiles(of: url).count, 3, "nothing goes before the save")
        try context.save()
        XCTAssertEqual(externalFiles(of: url), try referencedFiles(url))
        XCTAssertEqual(externalFiles(of: url).count, 2)
    }

    func testRollbackKeepsTheFilesAndAFailedSaveLeavesNone() throws {
        let context = try container().newContext()
        let photo = Photo(context: context)
        photo.caption = "kept"
        photo.bytes = sampleBytes(4_000)
        try context.save()
        let saved = externalFiles(of: url)
        photo.bytes = sampleBytes(9_000, seed: 4)
        context.delete(photo)
        context.rollback()
        XCTAssertEqual(photo.bytes, sampleBytes(4_000), "the saved value again")
        XCTAssertEqual(externalFiles(of: url), saved)

        // A save that fails after writing its files (the photo is too long) leaves nothing behind.
        let other = Photo(context: context)
        other.caption = "new"
        other.bytes = sampleBytes(8_000, seed: 5)
        let tooLong = Photo(context: context)
        tooLong.caption = "too long"
        tooLong.bytes = sampleBytes(30_000_001)
        expectError(try context.save(), .validation)
        XCTAssertEqual(externalFiles(of: url), saved, "validation refuses before any file is written")
    }

    func testAFailedTransactionRemovesTheFilesItWrote() throws {
        let container = try container()
        let context = container.newContext()
        let photo = Photo(context: context)
        photo.caption = "a"
        photo.bytes = sampleBytes(3_000)
        try context.save()
        // Another context changes the photo's caption: this save's caption change is a
        // conflict, found after its new file was written.
        let other = container.newContext()
        let otherPhoto = try XCTUnwrap(other.fetch(FetchRequest<Photo>()).first)
        otherPhoto.caption = "changed elsewhere"
        try other.save()
        context.automaticallyMergesChanges = false
        photo.caption = "changed here"
        photo.bytes = sampleBytes(5_000, seed: 7)
        let before = externalFiles(of: url)
        expectError(try context.save(), .conflict)
        XCTAssertEqual(externalFiles(of: url), before, "the conflicting save's file is gone with its transaction")
        XCTAssertEqual(before, try referencedFiles(url))
    }
}
