import Foundation
import PersistKit

/// A file kept with a task: a photo, a receipt, a recording. Its bytes are stored outside the
/// database file when they are larger than 100 KB (PersistKit's `.externalStorage`), in the
/// folder `<store file>-external/` beside the store, and read only when ``contents`` is read:
/// listing a task's attachments reads none of them.
///
/// ```swift
/// let photo = try store.attach(try Data(contentsOf: url), fileName: "receipt.jpg", to: task)
/// photo.mediaType        // "image/jpeg"
/// task.attachments       // in the order they were attached
/// ```
///
/// A task keeps its attachments in order; removing the task removes them (and their files,
/// once the removal is saved). Change them through ``TaskStore`` (``TaskStore/attach(_:fileName:mediaType:to:)``,
/// ``TaskStore/detach(_:)``). (Model version 3.)
public final class Attachment: ManagedObject {
    /// The most bytes an attachment may hold: 100 MB.
    public static let maximumSize = 100_000_000
    /// The most bytes (UTF-8) a file name may have, as most file systems allow.
    public static let maximumFileNameLength = 255

    /// The name of the file it was attached from, without its folder: `receipt.jpg`.
    @Attribute(.minLength(1), .maxLength(Attachment.maximumFileNameLength)) public var fileName: String
    /// Its media type (MIME type), `image/jpeg`; `application/octet-stream` when unknown.
    @Attribute public var mediaType: String
    /// How many bytes ``contents`` holds: kept in the row, so that a list of attachments reads
    /// no file.
    @Attribute public var size = 0
    /// The bytes. Above 100 KB they are kept in a file beside the store and read when this
    /// property is first read.
    @Attribute(.externalStorage, .maxLength(Attachment.maximumSize)) public var contents: Data
    /// When it was attached, to the millisecond.
    @Attribute public var createdAt = Date(timeIntervalSince1970: 0)
    /// The task it belongs to.
    @Relationship(inverse: \TaskItem.attachments) public var task: TaskItem?

    /// The bytes, read now when they are kept in a file: unlike ``contents`` (which reads as
    /// empty data then), a missing or damaged file is an error. What to read before the bytes
    /// leave the store (a copy, an export).
    ///
    /// - Throws: `PersistError` `.externalDataUnavailable` naming the attachment
    ///   and its file, when the folder beside the store was not kept with it or the file was
    ///   changed.
    public func readContents() throws -> Data {
        guard let data = try value(forKey: "contents") as? Data, data.count == size else {
            throw PersistError(.externalDataUnavailable,
                               "the attachment \(fileName) cannot be read: its bytes are not the \(size) it was saved with",
                               entity: Attachment.entityName, attribute: "contents", objectIDs: [objectID])
        }
        return data
    }

    /// Checks a file name as an attachment's must be: not empty, one path component (no `/`,
    /// not `.` or `..`), no control characters, at most 255 bytes of UTF-8.
    ///
    /// - Throws: `PersistError` `.validation` naming the problem.
    public static func validate(fileName: String) throws {
        func refuse(_ problem: String) -> PersistError {
            PersistError(.validation, "an attachment's file name \(problem)", entity: entityName, attribute: "fileName")
        }
        if fileName.isEmpty { throw refuse("cannot be empty") }
        if fileName.contains("/") || fileName == "." || fileName == ".." { throw refuse("must be a name, not a path") }
        if fileName.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw refuse("cannot hold control characters")
        }
        if fileName.utf8.count > maximumFileNameLength {
            throw refuse("can be at most \(maximumFileNameLength) bytes long (this one has \(fileName.utf8.count))")
        }
    }

    /// Checks a media type: `type/subtype` (`image/jpeg`, `text/plain; charset=utf-8`), at
    /// most 255 characters, no spaces or control characters before its parameters.
    ///
    /// - Throws: `PersistError` `.validation` naming the problem.
    public static func validate(mediaType: String) throws {
        let essence = mediaType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = essence.split(separator: "/", omittingEmptySubsequences: false)
        let isToken = { (part: Substring) in
            !part.isEmpty && part.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0.value < 0x7F && $0 != "/" }
        }
        guard parts.count == 2, parts.allSatisfy(isToken), mediaType.count <= 255,
              !mediaType.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw PersistError(.validation, "\"\(mediaType)\" is not a media type (like image/jpeg)", entity: entityName,
                               attribute: "mediaType")
        }
    }

    /// Checks a size against ``maximumSize``.
    ///
    /// - Throws: `PersistError` `.validation`: `an attachment can hold at most
    ///   100 MB (movie.mp4 has 120.5 MB)`.
    public static func validate(size: Int, fileName: String) throws {
        guard size > maximumSize else { return }
        let megabytes = String(format: "%.1f", Double(size) / 1_000_000)
        throw PersistError(.validation, "an attachment can hold at most \(maximumSize / 1_000_000) MB (\(fileName) has \(megabytes) MB)",
                           entity: entityName, attribute: "contents")
    }

    /// Refuses to save an attachment whose file name or media type ``validate(fileName:)`` or
    /// ``validate(mediaType:)`` refuses. (Its
    /// size is checked by the `contents` attribute's rule, without reading a stored file.)
    ///
    /// - Throws: `PersistError` `.validation`, attribute "fileName" or "mediaType".
    override public func validateForSave() throws {
        try Attachment.validate(fileName: fileName)
        try Attachment.validate(mediaType: mediaType)
    }
}
