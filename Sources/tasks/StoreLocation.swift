import Foundation

/// Where the task store is: the file, and how to name it in messages.
struct StoreLocation {
    /// The store file.
    let url: URL
    /// The path as the user gave it (or the default's full path), for messages.
    let displayPath: String

    /// `--store`, else `$TASKS_STORE`, else `$XDG_DATA_HOME/tasks/tasks.sqlite`, else
    /// `~/.local/share/tasks/tasks.sqlite`. Empty values count as unset; a relative
    /// `XDG_DATA_HOME` is ignored, as the XDG specification says.
    static func resolve(option: String?, environment: [String: String]) throws -> StoreLocation {
        if let option {
            guard !option.isEmpty else { throw CommandError.usage("--store needs a file path") }
            return StoreLocation(url: URL(fileURLWithPath: option), displayPath: option)
        }
        if let path = environment["TASKS_STORE"], !path.isEmpty {
            return StoreLocation(url: URL(fileURLWithPath: path), displayPath: path)
        }
        let dataHome: URL
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
                ?? FileManager.default.homeDirectoryForCurrentUser.path
            dataHome = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share", isDirectory: true)
        }
        let url = dataHome.appendingPathComponent("tasks", isDirectory: true).appendingPathComponent("tasks.sqlite")
        return StoreLocation(url: url, displayPath: url.path)
    }

    /// The directory the store lives in.
    var directory: URL { url.deletingLastPathComponent() }

    /// Creates the store's directory (and its parents) if missing.
    ///
    /// - Throws: ``CommandError`` when a file stands where a directory must be, or the
    ///   directory cannot be made.
    func createDirectory() throws {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue { return }
        // Name the file in the way, if there is one: a clearer message than ENOTDIR.
        var ancestor = directory
        while ancestor.path != "/" && !ancestor.path.isEmpty {
            if fileManager.fileExists(atPath: ancestor.path, isDirectory: &isDirectory) {
                if !isDirectory.boolValue {
                    throw CommandError.failure("cannot create the store's directory \(directory.path): \(ancestor.path) is a file")
                }
                break
            }
            ancestor = ancestor.deletingLastPathComponent()
        }
        do {
            try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            // The system's reason ("permission denied"), not Foundation's sentence about it.
            throw CommandError.failure("cannot create the store's directory \(directory.path): "
                                       + FileErrors.reason(error, path: directory.path))
        }
    }

    /// - Throws: ``CommandError`` when the store path is a directory.
    func checkNotADirectory() throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CommandError.failure("\(displayPath) is a directory, not a task store")
        }
    }
}
