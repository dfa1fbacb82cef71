import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// `.externalStorage` in an inheritance tree: an attribute declared on the root or on a
/// sub-entity keeps its large values in files as on a plain entity, in the tree's one table,
/// through reads, faults, rollback, deletes (a context's, a batch delete of the tree, a cascade
/// into it), the sweep and `persistkit check`.
final class ExternalStorageInheritanceTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var url: URL!

    override func setUp() {
        directory = TemporaryDirectory()
        url = directory.file("gallery.sqlite")
    }

    override func tearDown() {
        directory = nil
    }

    private func container() throws -> PersistentContainer {
        try PersistentContainer(model: ManagedObjectModel(entities: galleryEntities), store: .sqlite(url))
    }

    /// Two galleries, each with a painting (a large image and a large scan) and a sculpture
    /// (a large image), and a painting with small values in the first: 6 files.
    @discardableResult
    private func galleries(in context: ManagedObjectContext) throws -> [Gallery] {
        let galleries = (0..<2).map { index in
            let gallery = Gallery(context: context)
            gallery.name = "gallery \(index)"
            let painting = Painting(context: context)
            painting.title = "painting \(index)"
            painting.image = sampleBytes(2_000 + index, seed: UInt8(index))
            painting.scan = sampleBytes(600 + index, seed: UInt8(10 + index))
            painting.gallery = gallery
            let sculpture = Sculpture(context: context)
            sculpture.title = "sculpture \(index)"
            sculpture.material = "bronze"
            sculpture.image = sampleBytes(3_000 + index, seed: UInt8(20 + index))
            sculpture.gallery = gallery
            return gallery
        }
        let small = Painting(context: context)
        small.title = "sketch"
        small.image = sampleBytes(1_024, seed: 30)   // the thresholds themselves: in the row
        small.scan = sampleBytes(512, seed: 31)
        small.gallery = galleries[0]
        try context.save()
        XCTAssertEqual(externalFiles(of: url).count, 6)
        XCTAssertEqual(externalFiles(of: url), try referencedGalleryFiles(url))
        return galleries
    }

    func testTheRootsAndASubEntitysAttributesKeepLargeValuesInFiles() throws {
        try galleries(in: try container().newContext())
        XCTAssertEqual(Set(try storedReferences(url, table: "Exhibit", column: "scan").map { $0.split(separator: ":")[1] }), ["600", "601"],
                       "the paintings' scans above 512 bytes are in files, in the tree's table")
        let fresh = try container().newContext()
        // A fetch of the abstract root returns every sub-entity's objects, their values unread.
        let exhibits = try fresh.fetch(FetchRequest<Exhibit>(sortBy: [.init(\.title)]))
        XCTAssertEqual(exhibits.map(\.title), ["painting 0", "painting 1", "sculpture 0", "sculpture 1", "sketch"])
        XCTAssertTrue(exhibits.allSatisfy { $0.loadedExternalValues == nil }, "fetched without their files")
        XCTAssertEqual(exhibits.map(\.image), [sampleBytes(2_000, seed: 0), sampleBytes(2_001, seed: 1),
                                               sampleBytes(3_000, seed: 20), sampleBytes(3_001, seed: 21), sampleBytes(1_024, seed: 30)])
        let paintings = exhibits.compactMap { $0 as? Painting }
        XCTAssertEqual(paintings.map(\.scan), [sampleBytes(600, seed: 10), sampleBytes(601, seed: 11), sampleBytes(512, seed: 31)])
        XCTAssertEqual(try fresh.fetch(FetchRequest<Painting>(predicate: \.scan != nil)).count, 3)
        XCTAssertEqual(try fresh.fetch(FetchRequest<Exhibit>(predicate: \.image == nil)).count, 0)
    }

    func testAFaultReadsItsFileWhenItsValueIsRead() throws {
        let context = try container().newContext()
        try galleries(in: context)
        let painting = try XCTUnwrap(try context.fetch(FetchRequest<Painting>(predicate: \.title == "painting 1")).first)
        let id = painting.objectID
        let reader = try container().newContext()
        let fault = try XCTUnwrap(try reader.existingObject(with: id) as? Painting)
        XCTAssertEqual(fault.scan, sampleBytes(601, seed: 11))
        XCTAssertEqual(fault.image, sampleBytes(2_001, seed: 1))
        // Through a relationship to the abstract root.
        let gallery = try XCTUnwrap(try reader.fetch(FetchRequest<Gallery>(predicate: \.name == "gallery 1")).first)
        XCTAssertEqual(Set(gallery.exhibits.map(\.image)), [sampleBytes(2_001, seed: 1), sampleBytes(3_001, seed: 21)])
    }

    func testChangesRollbackAndDeletesKeepTheFilesExact() throws {
        let context = try container().newContext()
        try galleries(in: context)
        let before = externalFiles(of: url)
        let exhibits = try context.fetch(FetchRequest<Exhibit>(sortBy: [.init(\.title)]))
        let painting = try XCTUnwrap(exhibits[0] as? Painting), sculpture = try XCTUnwrap(exhibits[2] as? Sculpture)
        painting.scan = sampleBytes(5_000, seed: 40)
        sculpture.image = nil
        context.rollback()
        XCTAssertEqual(painting.scan, sampleBytes(600, seed: 10), "rolled back to the saved value, read from its file")
        XCTAssertEqual(sculpture.image, sampleBytes(3_000, seed: 20))
        XCTAssertEqual(externalFiles(of: url), before, "a rollback writes and removes no file")

        painting.scan = sampleBytes(5_000, seed: 40)
        sculpture.image = nil
        try context.save()
        XCTAssertEqual(externalFiles(of: url).count, 5, "the old scan's and image's files are gone, the new scan has one")
        XCTAssertEqual(externalFiles(of: url), try referencedGalleryFiles(url))
        XCTAssertEqual(try container().newContext().existingObject(with: painting.objectID).value(forKey: "scan") as? Data,
                       sampleBytes(5_000, seed: 40))

        context.delete(painting)
        try context.save()
        XCTAssertEqual(externalFiles(of: url).count, 3, "the deleted painting's image and scan files are gone")
        XCTAssertEqual(externalFiles(of: url), try referencedGalleryFiles(url))
    }

    func testABatchDeleteOfTheTreeAndACascadeIntoItRemoveTheFiles() throws {
        let context = try container().newContext()
        try galleries(in: context)
        try context.execute(BatchDeleteRequest<Exhibit>(predicate: \.title == "sculpture 1"))
        XCTAssertEqual(externalFiles(of: url).count, 5)
        XCTAssertEqual(externalFiles(of: url), try referencedGalleryFiles(url))
        try context.execute(BatchDeleteRequest<Gallery>(predicate: \.name == "gallery 0"))
        XCTAssertEqual(externalFiles(of: url).count, 2, "the cascade took gallery 0's painting and sculpture, and their files")
        XCTAssertEqual(externalFiles(of: url), try referencedGalleryFiles(url))
        try context.execute(BatchDeleteRequest<Painting>())
        XCTAssertEqual(externalFiles(of: url), [], "the last painting's image and scan")

        let other = try container().newContext()
        other.delete(try galleries(in: other)[1])
        try other.save()
        XCTAssertEqual(externalFiles(of: url).count, 3, "a context's cascade into the tree removed the gallery's exhibits' files")
        XCTAssertEqual(externalFiles(of: url), try referencedGalleryFiles(url))
        try other.execute(BatchDeleteRequest<Exhibit>())
        XCTAssertEqual(externalFiles(of: url), [])
    }

    func testBatchInsertsAndUpdatesOfATreeKeepTheThresholds() throws {
        let context = try container().newContext()
        try context.execute(BatchInsertRequest<Painting>(objects: [
            ["title": "batch", "image": sampleBytes(2_000, seed: 50), "scan": sampleBytes(600, seed: 51)],
            ["title": "small", "image": sampleBytes(100, seed: 52), "scan": sampleBytes(100, seed: 53)],
        ]))
        XCTAssertEqual(externalFiles(of: url).count, 2, "the large image and scan of the inserted painting")
        XCTAssertEqual(externalFiles(of: url), try referencedGalleryFiles(url))
        // A batch update of the root sets nil in every entity's rows, and lets their files go.
        try context.execute(BatchUpdateRequest<Exhibit>(propertiesToUpdate: ["image": nil]))
        XCTAssertEqual(externalFiles(of: url).count, 1)
        XCTAssertEqual(externalFiles(of: url), try referencedGalleryFiles(url))
        expectError(try context.execute(BatchUpdateRequest<Painting>(propertiesToUpdate: ["scan": sampleBytes(600)])), .invalidRequest) { error in
            XCTAssertEqual(error.attribute, "scan")
        }
        let paintings = try container().newContext().fetch(FetchRequest<Painting>(sortBy: [.init(\.title)]))
        XCTAssertEqual(paintings.map(\.scan), [sampleBytes(600, seed: 51), sampleBytes(100, seed: 53)], "the refused update changed nothing")
        XCTAssertEqual(paintings.map(\.image), [nil, nil])
    }

    func testTheSweepAndTheInspectorReadTheTreesTable() throws {
        let model = try ManagedObjectModel(entities: galleryEntities)
        try galleries(in: try container().newContext())
        let named = externalFiles(of: url)
        XCTAssertEqual(try StoreInspector(url: url).valueProblems(against: model), [], "each entity's references are values it may hold")

        let stray = UUID().uuidString
        try Data([1, 2, 3]).write(to: externalFolder(of: url).appendingPathComponent(stray))
        let scan = try XCTUnwrap(try storedReferences(url, table: "Exhibit", column: "scan").first)
        let damaged = externalFolder(of: url).appendingPathComponent(String(scan.prefix(36)))
        try Data([0]).write(to: damaged)
        let problems = try StoreInspector(url: url).externalDataProblems(against: model)
        XCTAssertEqual(problems.count, 2, "\(problems)")
        XCTAssertTrue(problems.contains { $0.hasPrefix("external: Painting.scan of Painting ") && $0.contains("which has 1 bytes") }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.contains("1 file of") }, "\(problems)")

        _ = try container()
        XCTAssertEqual(externalFiles(of: url), named, "the sweep removed the file no row of the tree names, and only it")
    }
}
