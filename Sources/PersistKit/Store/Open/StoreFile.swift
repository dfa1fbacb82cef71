import Foundation

/// A store's file: the path as given (for messages), the real path SQLite opens, and what this
/// process may do with it.
///
/// SQLite keeps a store's `-wal` and `-shm` files next to the path it opens, and every process
/// must find the same ones: a store reached through a symbolic link is opened at its real path.
struct StoreFile {
    /// The path as the caller gave it.
    let path: String
    /// The path with every symbolic link resolved (of the file and of its directories).
    let realPath: String
    /// Whether a file (of any size) exists at `realPath`.
    let exists: Bool
    /// Why this process can only read the store, or nil when it can write it.
    let readOnlyReason: String?

    var directory: String { (realPath as NSString).deletingLastPathComponent }

    /// Resolves and checks `url`: a file URL, not itself a directory. The directory is made
    /// (with its missing parents) when the store may be written, as `mkdir -p` would: a new
    /// store at a new path is what a user asks for; a read-only store's must exist.
    ///
    /// - Throws: ``PersistError`` `.cannotOpenStore` naming the path and the problem.
    init(url: URL, readOnly: Bool) throws {
        guard url.isFileURL else {
            throw PersistError(.cannotOpenStore, "\(url) is not a file URL")
        }
        path = url.path
        if !readOnly { try StoreFile.makeDirectory((path as NSString).deletingLastPathComponent, for: path) }
        realPath = try StoreFile.resolve(path)
        var isDirectory: ObjCBool = false
        exists = FileManager.default.fileExists(atPath: realPath, isDirectory: &isDirectory)
        if exists && isDirectory.boolValue {
            throw PersistError(.cannotOpenStore, "Cannot open store \(path): it is a directory")
        }
        let directory = (realPath as NSString).deletingLastPathComponent
        if readOnly {
            readOnlyReason = "it was opened read-only"
        } else if access(directory, W_OK) != 0 {
            readOnlyReason = "the directory \(directory) is not writable"
        } else if exists && access(realPath, W_OK) != 0 {
            readOnlyReason = "the file is not writable"
        } else {
            readOnlyReason = nil
        }
        if !exists, let readOnlyReason {
            throw PersistError(.cannotOpenStore, "Cannot create store \(path): \(readOnlyReason)")
        }
    }

    /// Makes `directory` and its missing parents. Anything already there (a directory, a link
    /// to one, or a file in the way) is left for ``resolve(_:)`` to judge.
    private static func makeDirectory(_ directory: String, for path: String) throws {
        guard !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) else { return }
        let parent = (directory as NSString).deletingLastPathComponent
        if parent != directory { try makeDirectory(parent, for: path) }
        if mkdir(directory, 0o755) != 0 && errno != EEXIST {
            throw PersistError(.cannotOpenStore,
                "Cannot create store \(path): the directory \(directory) cannot be made (\(String(cString: strerror(errno))))")
        }
    }

    /// `path` with its directory's links resolved and, while the file itself is a link, the
    /// link followed (a link to a missing file resolves to where that file would be).
    private static func resolve(_ path: String) throws -> String {
        var current = path
        for _ in 0..<40 {
            let directory = (current as NSString).deletingLastPathComponent
            guard let resolved = realpath(directory, nil) else {
                throw PersistError(.cannotOpenStore, "Cannot open store \(path): the directory \(directory) does not exist")
            }
            let realDirectory = String(cString: resolved)
            free(resolved)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: realDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw PersistError(.cannotOpenStore, "Cannot open store \(path): the directory \(directory) does not exist")
            }
            let candidate = (realDirectory as NSString).appendingPathComponent((current as NSString).lastPathComponent)
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: candidate) else { return candidate }
            current = target.hasPrefix("/") ? target : (realDirectory as NSString).appendingPathComponent(target)
        }
        throw PersistError(.cannotOpenStore, "Cannot open store \(path): too many levels of symbolic links")
    }
}
