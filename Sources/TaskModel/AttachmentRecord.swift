import Foundation

/// One attachment in an export document: its file name, media type, size, when it was
/// attached, and its bytes in base64 (RFC 4648, with padding, on one line).
///
/// ```json
/// {"contents": "iVBORw0KGgo...", "createdAt": "2026-11-21T09:20:00.000Z", "fileName": "receipt.png",
///  "mediaType": "image/png", "size": 48213}
/// ```
/// `size` is the number of bytes `contents` decodes to; an import checks it.
public struct AttachmentRecord: Codable, Sendable, Hashable {
    /// The file name.
    public var fileName: String
    /// The media type.
    public var mediaType: String
    /// When it was attached.
    public var createdAt: Date
    /// The bytes.
    public var contents: Data

    /// A record with these values.
    public init(fileName: String, mediaType: String, createdAt: Date, contents: Data) {
        self.fileName = fileName
        self.mediaType = mediaType
        self.createdAt = createdAt
        self.contents = contents
    }

    /// The record of an attachment: reads its contents (from its file, when it has one).
    ///
    /// - Throws: `PersistError` `.externalDataUnavailable` when its file is
    ///   missing or damaged (``Attachment/readContents()``).
    public init(_ attachment: Attachment) throws {
        self.init(fileName: attachment.fileName, mediaType: attachment.mediaType, createdAt: attachment.createdAt,
                  contents: try attachment.readContents())
    }

    private enum CodingKeys: String, CodingKey {
        case fileName, mediaType, size, createdAt, contents
    }

    /// Reads a record: every key is required; `contents` must be base64 of `size` bytes.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        fileName = try container.decode(String.self, forKey: .fileName)
        mediaType = try container.decode(String.self, forKey: .mediaType)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        let size = try container.decode(Int.self, forKey: .size)
        let text = try container.decode(String.self, forKey: .contents)
        guard let contents = Data(base64Encoded: text) else {
            throw DecodingError.dataCorruptedError(forKey: .contents, in: container, debugDescription: "it is not base64")
        }
        guard contents.count == size else {
            throw DecodingError.dataCorruptedError(forKey: .contents, in: container,
                debugDescription: "it holds \(contents.count) bytes, not the \(size) its size says")
        }
        self.contents = contents
    }

    /// Writes every key; the bytes as base64.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(fileName, forKey: .fileName)
        try container.encode(mediaType, forKey: .mediaType)
        try container.encode(contents.count, forKey: .size)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(contents.base64EncodedString(), forKey: .contents)
    }
}
