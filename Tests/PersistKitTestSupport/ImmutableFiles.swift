import Foundation
import XCTest

/// Files and directories made immutable with `chattr +i` until ``release()`` (or deinit): the
/// one kind of read-only that holds for root too, who writes through any file permission.
/// Where `chattr` is missing or the file system refuses it, the test is skipped.
public final class ImmutableFiles {
    private var urls: [URL] = []

    public init(_ urls: [URL]) throws {
        for url in urls {
            guard Self.chattr("+i", url) else {
                release()
                throw XCTSkip("chattr +i is not available here (\(url.path)): cannot make a file read-only for this user")
            }
            self.urls.append(url)
        }
    }

    /// Makes everything writable again (so the temporary directory can be removed).
    public func release() {
        for url in urls.reversed() { _ = Self.chattr("-i", url) }
        urls = []
    }

    deinit { release() }

    private static func chattr(_ flag: String, _ url: URL) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["chattr", flag, url.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationReason == .exit && process.terminationStatus == 0
    }
}
