import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// What a model may declare with `.externalStorage`, and what predicates, sorts and rules do
/// with such an attribute.
final class ExternalStorageModelTests: XCTestCase {
    final class UniqueScan: ManagedObject {
        @Attribute(.unique, .externalStorage) var image: Data
    }

    final class ConstrainedScan: ManagedObject {
        override class var uniquenessConstraints: [[String]] { [["name", "image"]] }
        @Attribute var name: String
        @Attribute(.externalStorage) var image: Data?
    }

    final class TwiceScan: ManagedObject {
        @Attribute(.externalStorage, .externalStorage(threshold: 10)) var image: Data?
    }

    final class NegativeScan: ManagedObject {
        @Attribute(.externalStorage(threshold: -1)) var image: Data?
    }

    /// A scan whose every non-empty image is in a file, and must have at least 100 bytes.
    final class Scan: ManagedObject {
        @Attribute var name: String
        @Attribute(.externalStorage(threshold: 0), .minLength(100)) var image: Data
    }

    final class PlainScan: ManagedObject {
        override class var entityName: String { "Scan" }
        @Attribute var name: String
        @Attribute(.minLength(100)) var image: Data
    }

    final class BiggerThresholdScan: ManagedObject {
        override class var entityName: String { "Scan" }
        @Attribute var name: String
        @Attribute(.externalStorage(threshold: 5_000), .minLength(100)) var image: Data
    }

    func testUniquenessOnAnExternallyStoredAttributeIsRefused() {
        for entity in [UniqueScan.self, ConstrainedScan.self] as [ManagedObject.Type] {
            expectError(try ManagedObjectModel(entities: [entity]), .invalidModel) { error in
                XCTAssertEqual(error.attribute, "image")
                XCTAssertTrue(error.message.contains("cannot be unique"), error.message)
            }
        }
    }

    func testAThresholdDeclaredTwiceOrNegativeIsRefused() {
        expectError(try ManagedObjectModel(entities: [TwiceScan.self]), .invalidModel) { error in
            XCTAssertTrue(error.message.contains("declares .externalStorage twice"), error.message)
        }
        expectError(try ManagedObjectModel(entities: [NegativeScan.self]), .invalidModel) { error in
            XCTAssertTrue(error.message.contains("negative external storage threshold (-1)"), error.message)
        }
    }

    func testTheOptionIsPartOfTheSchemaAndItsThresholdIsNot() throws {
        let external = try ManagedObjectModel(entities: [Scan.self])
        let plain = try ManagedObjectModel(entities: [PlainScan.self])
        let bigger = try ManagedObjectModel(entities: [BiggerThresholdScan.self])
        XCTAssertNotEqual(external.versionHash, plain.versionHash, "turning the option on or off is a new schema")
        XCTAssertEqual(external.versionHash, bigger.versionHash, "the threshold is where values go, not the schema")
        let attribute = try XCTUnwrap(external.entity(named: "Scan")?.attribute(named: "image"))
        XCTAssertTrue(attribute.allowsExternalStorage)
        XCTAssertEqual(attribute.externalStorageThreshold, 0)
        XCTAssertNil(plain.entity(named: "Scan")?.attribute(named: "image")?.externalStorageThreshold)
        XCTAssertEqual(try ManagedObjectModel(entities: [PhotoAlbum.self, Photo.self]).entity(named: "PhotoAlbum")?
            .attribute(named: "cover")?.externalStorageThreshold, 102_400, "100 KB by default")
    }

    func testTheModelDocumentRecordsTheOptionAndLoadsIt() throws {
        let model = try ManagedObjectModel(entities: [BiggerThresholdScan.self])
        let text = String(decoding: model.document, as: UTF8.self)
        XCTAssertTrue(text.contains("\"externalStorageThreshold\" : 5000"), text)
        XCTAssertFalse(String(decoding: try ManagedObjectModel(entities: [PlainScan.self]).document, as: UTF8.self)
            .contains("externalStorage"), "a model without it keeps its document's bytes")
        let loaded = try ManagedObjectModel(document: model.document)
        XCTAssertEqual(loaded.versionHash, model.versionHash)
        XCTAssertEqual(loaded.entity(named: "Scan")?.attribute(named: "image")?.externalStorageThreshold, 5_000)
        let onText = text.replacingOccurrences(of: "\"type\" : \"string\"", with: "\"type\" : \"string\", \"externalStorageThreshold\" : 1")
        expectError(try ManagedObjectModel(document: Data(onText.utf8)), .invalidModel) { error in
            XCTAssertTrue(error.message.contains("only binary (Data) attributes can be stored externally"), error.message)
        }
    }

    func testADocumentModelReadsAndWritesExternalValuesByKey() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("scans.sqlite")
        let model = try ManagedObjectModel(document: ManagedObjectModel(entities: [BiggerThresholdScan.self]).document)
        let context = try PersistentContainer(model: model, store: .sqlite(url)).newContext()
        let entity = try XCTUnwrap(model.entity(named: "Scan"))
        let scan = ManagedObject(entity: entity, insertInto: context)
        try scan.setValue("doc", forKey: "name")
        try scan.setValue(sampleBytes(6_000), forKey: "image")
        try context.save()
        XCTAssertEqual(externalFiles(of: url).count, 1)
        let reader = try PersistentContainer(model: model, store: .sqlite(url)).newContext()
        let read = try XCTUnwrap(reader.fetch(FetchRequest<ManagedObject>(entityName: "Scan")).first)
        XCTAssertEqual(try read.value(forKey: "image") as? Data, sampleBytes(6_000))
    }

    func testPredicatesTestForNilOnlyAndSortsAreRefused() throws {
        let directory = TemporaryDirectory()
        let container = try PersistentContainer(model: ManagedObjectModel(entities: photoEntities),
                                                store: .sqlite(directory.file("photos.sqlite")))
        let context = container.newContext()
        let album = PhotoAlbum(context: context)
        album.title = "with cover"
        album.cover = sampleBytes(200_000)
        let bare = PhotoAlbum(context: context)
        bare.title = "bare"
        try context.save()
        let withCover = FetchRequest<PhotoAlbum>(predicate: try FetchPredicate(format: "cover != nil"))
        XCTAssertEqual(try context.fetch(withCover).map(\.title), ["with cover"])
        XCTAssertEqual(try context.count(for: FetchRequest<PhotoAlbum>(predicate: try FetchPredicate(format: "cover == nil"))), 1)
        let reader = container.newContext()
        XCTAssertEqual(try reader.fetch(withCover).map(\.title), ["with cover"], "in SQL too")

        let equal = FetchRequest<PhotoAlbum>(predicate: try FetchPredicate(format: "cover == %@", sampleBytes(200_000)))
        expectError(try context.fetch(equal), .invalidPredicate) { error in
            XCTAssertEqual(error.attribute, "cover")
            XCTAssertTrue(error.message.contains("can only test it for nil"), error.message)
        }
        expectError(try context.count(for: equal), .invalidPredicate)
        expectError(try context.execute(BatchDeleteRequest<PhotoAlbum>(predicate: try FetchPredicate(format: "cover == %@", Data([1])))),
                    .invalidPredicate)
        let photoByAlbumCover = FetchRequest<Photo>(predicate: try FetchPredicate(format: "album.cover == %@", Data([1])))
        expectError(try context.fetch(photoByAlbumCover), .invalidPredicate)

        expectError(try context.fetch(FetchRequest<PhotoAlbum>(sortBy: [FetchSortDescriptor(key: "cover")])), .invalidRequest) { error in
            XCTAssertTrue(error.message.contains("cover is stored externally"), error.message)
        }
        expectError(try context.fetch(FetchRequest<Photo>(sortBy: [FetchSortDescriptor(key: "album.cover")])), .invalidRequest)
    }

    func testLengthRulesJudgeAStoredValueByItsSize() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("scans.sqlite")
        let model = try ManagedObjectModel(entities: [Scan.self])
        let context = try PersistentContainer(model: model, store: .sqlite(url)).newContext()
        let scan = Scan(context: context)
        scan.name = "first"
        scan.image = sampleBytes(99)
        expectError(try context.save(), .validation) { error in
            XCTAssertEqual(error.problems, ["Scan.image must be at least 100 bytes (has 99)"])
        }
        scan.image = sampleBytes(150)
        try context.save()
        XCTAssertEqual(externalFiles(of: url).count, 1)
        // Fetched and changed in another key: the rule judges the reference by the size it
        // records (its text is 40 characters), and the value is not read.
        let reader = try PersistentContainer(model: model, store: .sqlite(url)).newContext()
        let fetched = try XCTUnwrap(reader.fetch(FetchRequest<Scan>()).first)
        fetched.name = "renamed"
        try reader.save()
        XCTAssertNil(fetched.loadedExternalValues, "validating did not read the file")
    }
}
