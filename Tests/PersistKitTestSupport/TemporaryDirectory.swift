import Foundation

/// A temporary directory per test, removed when the value goes away.
public final class TemporaryDirectory {
    /// The directory.
    public let url: URL

    /// Makes a fresh, empty directory named after `prefix`.
    public init(prefix: String = "persistkit-tests") {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(prefix + "-" + UUID().uuidString)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A file in the directory.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(at: url) }
}
