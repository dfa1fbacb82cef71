import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Migrations of `.externalStorage` attributes: turning the option on moves large values into
/// files, turning it off brings them back into the rows, copied tables keep their references,
/// and custom stages read and write values in files; the sweep at the end removes what no row
/// names. A migration that fails changes no row and no file.
final class ExternalStorageMigrationTests: XCTestCase {
    enum V1 {
        final class Scan: ManagedObject {
            @Attribute var name: String
            @Attribute var image: Data?
            @Attribute(.externalStorage(threshold: 1_000)) var thumbnail: Data?
        }
        static func model() throws -> ManagedObjectModel { try ManagedObjectModel(entities: [Scan.self], version: 1) }
    }

    /// The option turned on for `image`, off for `thumbnail`.
    enum V2 {
        final class Scan: ManagedObject {
            @Attribute var name: String
            @Attribute(.externalStorage(threshold: 1_000)) var image: Data?
            @Attribute var thumbnail: Data?
        }
        static func model() throws -> ManagedObjectModel { try ManagedObjectModel(entities: [Scan.self], version: 2) }
    }

    /// `name` renamed `title`, and an `archive` that a custom stage fills from `image`.
    enum V3 {
        final class Scan: ManagedObject {
            @Attribute(originalName: "name") var title: String
            @Attribute(.externalStorage(threshold: 1_000)) var image: Data?
            @Attribute var thumbnail: Data?
            @Attribute(.externalStorage(threshold: 0)) var archive: Data?
        }
        static func model() throws -> ManagedObjectModel { try ManagedObjectModel(entities: [Scan.self], version: 3) }
    }

    /// `thumbnail` made required with a default: its table is copied into a new one.
    enum V4 {
        final class Scan: ManagedObject {
            @Attribute var title: String
            @Attribute(.externalStorage(threshold: 1_000)) var image: Data?
            @Attribute var thumbnail = Data()
            @Attribute(.externalStorage(threshold: 0)) var archive: Data?
        }
        static func model() throws -> ManagedObjectModel { try ManagedObjectModel(entities: [Scan.self], version: 4) }
    }

    private var directory: TemporaryDirectory!
    private var url: URL!

    override func setUp() {
        directory = TemporaryDirectory()
        url = directory.file("scans.sqlite")
    }

    override func tearDown() {
        directory = nil
    }

    /// Four scans: images of 500 to 6,500 bytes, thumbnails of 100 to 4,600.
    private func writeVersion1() throws {
        try writeStore(at: url, model: V1.model()) { context in
            for index in 0..<4 {
                let scan = V1.Scan(context: context)
                scan.name = "scan \(index)"
                scan.image = sampleBytes(500 + 2_000 * index, seed: UInt8(index))
                scan.thumbnail = sampleBytes(100 + 1_500 * index, seed: UInt8(100 + index))
            }
        }
        XCTAssertEqual(externalFiles(of: url).count, 3, "the thumbnails above 1,000 bytes")
    }

    private func references(_ column: String) throws -> [String] {
        try storedReferences(url, table: "Scan", column: column)
    }

    func testTurningTheOptionOnAndOffMovesTheValues() throws {
        try writeVersion1()
        let thumbnailFiles = externalFiles(of: url)
        let container = try openMigrating(url, to: V2.model(), from: [V1.model()])
        XCTAssertEqual(try references("thumbnail"), [], "every thumbnail is back in its row")
        XCTAssertEqual(try references("image").count, 3, "the images above 1,000 bytes are in files")
        XCTAssertTrue(externalFiles(of: url).isDisjoint(with: thumbnailFiles), "the thumbnails' files are gone")
        XCTAssertEqual(externalFiles(of: url), Set(try references("image").map { String($0.prefix(36)) }))
        let context = container.newContext()
        for scan in try context.fetch(FetchRequest<V2.Scan>(sortBy: [.init(\.name)])) {
            let index = try XCTUnwrap(Int(scan.name.split(separator: " ")[1]))
            XCTAssertEqual(scan.image, sampleBytes(500 + 2_000 * index, seed: UInt8(index)))
            XCTAssertEqual(scan.thumbnail, sampleBytes(100 + 1_500 * index, seed: UInt8(100 + index)))
        }
    }

    func testEveryStageKeepsTheValuesThroughRenamesCustomCodeAndCopiedTables() throws {
        try writeVersion1()
        let stage = MigrationStage.custom(from: 2, to: 3, willMigrate: { context in
            // On version 2: the images moved into files by this very migration read back.
            for scan in try context.fetch(FetchRequest<V2.Scan>()) where scan.name == "scan 3" {
                XCTAssertEqual(scan.image, sampleBytes(6_500, seed: 3))
            }
        }, didMigrate: { context in
            for scan in try context.fetch(FetchRequest<V3.Scan>()) { scan.archive = scan.image }
        })
        let container = try openMigrating(url, to: V4.model(), from: [V1.model(), V2.model(), V3.model()], stages: [stage])
        let context = container.newContext()
        let scans = try context.fetch(FetchRequest<V4.Scan>(sortBy: [.init(\.title)]))
        XCTAssertEqual(scans.count, 4)
        for (index, scan) in scans.enumerated() {
            XCTAssertEqual(scan.title, "scan \(index)")
            XCTAssertEqual(scan.image, sampleBytes(500 + 2_000 * index, seed: UInt8(index)))
            XCTAssertEqual(scan.archive, scan.image, "copied by the custom stage, into files of their own")
            XCTAssertEqual(scan.thumbnail, sampleBytes(100 + 1_500 * index, seed: UInt8(100 + index)))
        }
        let referenced = Set((try references("image") + references("archive")).map { String($0.prefix(36)) })
        XCTAssertEqual(try references("archive").count, 4)
        XCTAssertEqual(externalFiles(of: url), referenced, "every file is named by a row, once")
        XCTAssertEqual(referenced.count, 7)
    }

    func testAMigrationThatCannotBringAValueBackChangesNothing() throws {
        try writeVersion1()
        let lost = try XCTUnwrap(references("thumbnail").first { $0.hasSuffix(":1600") })
        try FileManager.default.removeItem(at: externalFolder(of: url).appendingPathComponent(String(lost.prefix(36))))
        let before = externalFiles(of: url)
        let storeBefore = try Data(contentsOf: url)
        let error = try XCTUnwrap(expectPersistError(try openMigrating(url, to: V2.model(), from: [V1.model()]),
                                                     [.externalDataUnavailable]))
        XCTAssertEqual(error.attribute, "thumbnail")
        XCTAssertEqual(error.objectIDs.count, 1)
        XCTAssertTrue(error.message.contains("nothing was changed"), error.message)
        XCTAssertEqual(error.problems.count, 1)
        XCTAssertTrue(error.problems[0].contains("is missing"), error.problems[0])
        XCTAssertEqual(externalFiles(of: url), before, "the image files the migration wrote are gone with it")
        XCTAssertEqual(try Data(contentsOf: url), storeBefore, "the store is version 1's still")
        _ = try PersistentContainer(model: V1.model(), store: .sqlite(url))
    }
}
