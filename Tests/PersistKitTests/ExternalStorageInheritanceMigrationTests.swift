import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Migrations of `.externalStorage` in an inheritance tree: adding an externally stored
/// attribute to a sub-entity, and turning the option on and off for an attribute of the root,
/// move the values of every entity's rows in the tree's one table.
final class ExternalStorageInheritanceMigrationTests: XCTestCase {
    enum V1 {
        class Exhibit: ManagedObject {
            override class var isAbstractEntity: Bool { true }
            @Attribute var title = ""
            @Attribute var image: Data?
        }
        final class Painting: Exhibit {}
        final class Sculpture: Exhibit {
            @Attribute var material = ""
        }
        static func model() throws -> ManagedObjectModel {
            try ManagedObjectModel(entities: [Exhibit.self, Painting.self, Sculpture.self], version: 1)
        }
    }

    /// `image` stored externally above 1,000 bytes, and a new `scan` of paintings, above 500.
    enum V2 {
        class Exhibit: ManagedObject {
            override class var isAbstractEntity: Bool { true }
            @Attribute var title = ""
            @Attribute(.externalStorage(threshold: 1_000)) var image: Data?
        }
        final class Painting: Exhibit {
            @Attribute(.externalStorage(threshold: 500)) var scan: Data?
        }
        final class Sculpture: Exhibit {
            @Attribute var material = ""
        }
        static func model() throws -> ManagedObjectModel {
            try ManagedObjectModel(entities: [Exhibit.self, Painting.self, Sculpture.self], version: 2)
        }
    }

    /// `image` back in the rows.
    enum V3 {
        class Exhibit: ManagedObject {
            override class var isAbstractEntity: Bool { true }
            @Attribute var title = ""
            @Attribute var image: Data?
        }
        final class Painting: Exhibit {
            @Attribute(.externalStorage(threshold: 500)) var scan: Data?
        }
        final class Sculpture: Exhibit {
            @Attribute var material = ""
        }
        static func model() throws -> ManagedObjectModel {
            try ManagedObjectModel(entities: [Exhibit.self, Painting.self, Sculpture.self], version: 3)
        }
    }

    private var directory: TemporaryDirectory!
    private var url: URL!

    override func setUp() {
        directory = TemporaryDirectory()
        url = directory.file("exhibits.sqlite")
    }

    override func tearDown() {
        directory = nil
    }

    /// Two paintings and two sculptures, images of 500 to 6,500 bytes, all in the rows.
    private func writeVersion1() throws {
        try writeStore(at: url, model: V1.model()) { context in
            for index in 0..<4 {
                let exhibit: V1.Exhibit = index % 2 == 0 ? V1.Painting(context: context) : V1.Sculpture(context: context)
                exhibit.title = "exhibit \(index)"
                exhibit.image = sampleBytes(500 + 2_000 * index, seed: UInt8(index))
            }
        }
        XCTAssertEqual(externalFiles(of: url), [])
    }

    private func references(_ column: String) throws -> [String] {
        try storedReferences(url, table: "Exhibit", column: column)
    }

    func testTurningTheOptionOnForTheRootAndAddingASubEntitysAttributeMovesEveryEntitysValues() throws {
        try writeVersion1()
        let container = try openMigrating(url, to: V2.model(), from: [V1.model()])
        XCTAssertEqual(try references("image").count, 3, "the images above 1,000 bytes, of paintings and sculptures, are in files")
        XCTAssertEqual(externalFiles(of: url), try referencedGalleryFiles(url))
        let context = container.newContext()
        let exhibits = try context.fetch(FetchRequest<V2.Exhibit>(sortBy: [.init(\.title)]))
        XCTAssertEqual(exhibits.map { "\(type(of: $0))" }, ["Painting", "Sculpture", "Painting", "Sculpture"])
        for (index, exhibit) in exhibits.enumerated() {
            XCTAssertEqual(exhibit.image, sampleBytes(500 + 2_000 * index, seed: UInt8(index)))
        }
        let painting = try XCTUnwrap(exhibits[0] as? V2.Painting)
        XCTAssertNil(painting.scan)
        painting.scan = sampleBytes(700, seed: 9)
        try context.save()
        XCTAssertEqual(try references("scan").count, 1, "the new attribute of the sub-entity keeps its large values in files")
        XCTAssertEqual(externalFiles(of: url).count, 4)
        XCTAssertEqual(try StoreInspector(url: url).externalDataProblems(against: V2.model()), [])
    }

    func testTurningTheOptionOffBringsEveryEntitysValuesBack() throws {
        try writeVersion1()
        let version2 = try openMigrating(url, to: V2.model(), from: [V1.model()]).newContext()
        let painting = try XCTUnwrap(version2.fetch(FetchRequest<V2.Painting>(sortBy: [.init(\.title)])).first)
        painting.scan = sampleBytes(700, seed: 9)
        try version2.save()
        let container = try openMigrating(url, to: V3.model(), from: [V1.model(), V2.model()])
        XCTAssertEqual(try references("image"), [], "every image is back in its row")
        XCTAssertEqual(try references("scan").count, 1, "the scan stays in its file")
        XCTAssertEqual(externalFiles(of: url), try referencedGalleryFiles(url), "the images' files are gone")
        let exhibits = try container.newContext().fetch(FetchRequest<V3.Exhibit>(sortBy: [.init(\.title)]))
        for (index, exhibit) in exhibits.enumerated() {
            XCTAssertEqual(exhibit.image, sampleBytes(500 + 2_000 * index, seed: UInt8(index)))
        }
        XCTAssertEqual((exhibits[0] as? V3.Painting)?.scan, sampleBytes(700, seed: 9))
    }

    func testAMigrationThatCannotBringAValueBackNamesTheRowsOwnEntity() throws {
        try writeVersion1()
        _ = try openMigrating(url, to: V2.model(), from: [V1.model()])
        let lost = try XCTUnwrap(references("image").first { $0.hasSuffix(":4500") })   // exhibit 2, a painting
        try FileManager.default.removeItem(at: externalFolder(of: url).appendingPathComponent(String(lost.prefix(36))))
        let error = try XCTUnwrap(expectPersistError(try openMigrating(url, to: V3.model(), from: [V1.model(), V2.model()]),
                                                     [.externalDataUnavailable]))
        XCTAssertEqual(error.attribute, "image")
        XCTAssertEqual(error.objectIDs.map(\.entityName), ["Painting"])
        XCTAssertTrue(error.message.contains("nothing was changed"), error.message)
        XCTAssertEqual(error.problems.count, 1)
        XCTAssertTrue(error.problems[0].hasPrefix("Painting "), error.problems[0])
    }

    func testADocumentCannotDeclareAnInheritedAttributesStorageOtherwise() throws {
        var document = try XCTUnwrap(JSONSerialization.jsonObject(with: V2.model().document) as? [String: Any])
        var entities = try XCTUnwrap(document["entities"] as? [[String: Any]])
        let painting = try XCTUnwrap(entities.firstIndex { $0["name"] as? String == "Painting" })
        var attributes = try XCTUnwrap(entities[painting]["attributes"] as? [[String: Any]])
        let image = try XCTUnwrap(attributes.firstIndex { $0["name"] as? String == "image" })
        XCTAssertEqual(attributes[image].removeValue(forKey: "externalStorageThreshold") as? Int, 1_000)
        entities[painting]["attributes"] = attributes
        document["entities"] = entities
        let changed = try JSONSerialization.data(withJSONObject: document)
        let error = try XCTUnwrap(expectPersistError(try ManagedObjectModel(document: changed), [.invalidModel]))
        XCTAssertEqual(error.entity, "Painting")
        XCTAssertEqual(error.attribute, "image")
        XCTAssertTrue(error.message.contains("Painting.image is not stored externally but Exhibit.image is stored externally above "
                                             + "1000 bytes"), error.message)
    }
}
