import Foundation
@testable import PersistKit
import XCTest

/// An album whose cover is kept outside the database above 100 KB (the default threshold);
/// deleting it deletes its photos.
final class PhotoAlbum: ManagedObject {
    @Attribute var title: String
    @Attribute(.externalStorage) var cover: Data?
    @Relationship(deleteRule: .cascade) var photos: Set<Photo>
}

/// A photo whose bytes are kept outside the database above 1 KB.
final class Photo: ManagedObject {
    @Attribute var caption: String
    @Attribute(.externalStorage(threshold: 1_024), .maxLength(30_000_000)) var bytes: Data
    @Relationship(inverse: \PhotoAlbum.photos) var album: PhotoAlbum?
}

let photoEntities: [ManagedObject.Type] = [PhotoAlbum.self, Photo.self]

/// `count` bytes of a pattern that differs with `seed`, so that two values are told apart.
func sampleBytes(_ count: Int, seed: UInt8 = 1) -> Data {
    var bytes = [UInt8](repeating: 0, count: count)
    for index in 0..<count { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) &+ seed }
    return Data(bytes)
}

/// The folder that holds a store's values kept outside the database.
func externalFolder(of store: URL) -> URL { URL(fileURLWithPath: store.path + "-external") }

/// The names of the files in a store's external folder (none when it is missing).
func externalFiles(of store: URL) -> Set<String> {
    Set((try? FileManager.default.contentsOfDirectory(atPath: externalFolder(of: store).path)) ?? [])
}

/// The references (`<UUID>:<count>`) a column holds, read with a plain connection.
func storedReferences(_ store: URL, table: String, column: String) throws -> [String] {
    let connection = try SQLiteConnection(path: store.path, configuration: .init())
    let statement = try connection.prepare("SELECT \"\(column)\" FROM \"\(table)\" WHERE typeof(\"\(column)\") = 'text' ORDER BY 1")
    var references: [String] = []
    while try statement.step() { references.append(statement.string(at: 0)) }
    return references
}

/// The file names the references of every external column of the photo model hold.
func referencedFiles(_ store: URL) throws -> Set<String> {
    let references = try storedReferences(store, table: "PhotoAlbum", column: "cover")
        + storedReferences(store, table: "Photo", column: "bytes")
    return Set(references.map { String($0.prefix(36)) })
}

/// A gallery of exhibits, an inheritance tree with values kept outside the database:
/// deleting it deletes its exhibits.
final class Gallery: ManagedObject {
    @Attribute var name = ""
    @Relationship(deleteRule: .cascade) var exhibits: Set<Exhibit>
}

/// The abstract root of a tree whose image, declared on the root, is kept outside the
/// database above 1 KB in every entity of the tree.
class Exhibit: ManagedObject {
    override class var isAbstractEntity: Bool { true }
    @Attribute var title = ""
    @Attribute(.externalStorage(threshold: 1_024)) var image: Data?
    @Relationship(inverse: \Gallery.exhibits) var gallery: Gallery?
}

/// A sub-entity with an externally stored attribute of its own, above 512 bytes.
final class Painting: Exhibit {
    @Attribute(.externalStorage(threshold: 512)) var scan: Data?
}

/// A sub-entity without one of its own.
final class Sculpture: Exhibit {
    @Attribute var material = ""
}

let galleryEntities: [ManagedObject.Type] = [Gallery.self, Exhibit.self, Painting.self, Sculpture.self]

/// The file names the references of every external column of the gallery model hold (the
/// tree's one table, `Exhibit`, has both columns).
func referencedGalleryFiles(_ store: URL) throws -> Set<String> {
    let references = try storedReferences(store, table: "Exhibit", column: "image")
        + storedReferences(store, table: "Exhibit", column: "scan")
    return Set(references.map { String($0.prefix(36)) })
}
