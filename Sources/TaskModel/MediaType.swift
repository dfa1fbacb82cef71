import Foundation

/// Media types (MIME types) of attachments, told from their file names' extensions.
///
/// ```swift
/// MediaType.forFileName("receipt.JPG")   // "image/jpeg"
/// MediaType.forFileName("notes")         // "application/octet-stream"
/// ```
public enum MediaType {
    /// What a file of no known kind is: bytes.
    public static let unknown = "application/octet-stream"

    /// The media type of a file name's extension (compared without regard to case);
    /// ``unknown`` for none or one not in the table.
    public static func forFileName(_ fileName: String) -> String {
        let name = fileName as NSString
        let pathExtension = name.pathExtension.lowercased()
        return byExtension[pathExtension] ?? unknown
    }

    /// Whether a media type is text, safe to print on a terminal as it is.
    public static func isText(_ mediaType: String) -> Bool {
        mediaType.hasPrefix("text/") || mediaType == "application/json"
    }

    private static let byExtension: [String: String] = [
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif", "webp": "image/webp",
        "heic": "image/heic", "heif": "image/heif", "tif": "image/tiff", "tiff": "image/tiff", "bmp": "image/bmp",
        "svg": "image/svg+xml", "pdf": "application/pdf", "txt": "text/plain", "md": "text/markdown", "csv": "text/csv",
        "html": "text/html", "htm": "text/html", "json": "application/json", "xml": "application/xml",
        "zip": "application/zip", "gz": "application/gzip", "mp3": "audio/mpeg", "m4a": "audio/mp4", "wav": "audio/wav",
        "ogg": "audio/ogg", "mp4": "video/mp4", "mov": "video/quicktime", "webm": "video/webm",
    ]
}
