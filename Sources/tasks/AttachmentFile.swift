import Foundation
import PersistKit
import TaskModel

/// Reading a file to attach, with one-line errors, before any store is opened.
enum AttachmentFile {
    /// The bytes of the file at `path`.
    ///
    /// - Throws: a failure ``CommandError``: `cannot read photo.jpg: no such file or
    ///   directory`, `... it is a directory`, `... permission denied`, or a file larger than
    ///   an attachment may be (refused before it is read).
    static func read(_ path: String) throws -> Data {
        let shown = TerminalText.visible(path)
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw CommandError.failure("cannot read \(shown): " + OutputFile.reason(errno))
        }
        if status.st_mode & S_IFMT == S_IFDIR {
            throw CommandError.failure("cannot read \(shown): it is a directory")
        }
        if status.st_mode & S_IFMT == S_IFREG {
            try checkSize(Int(status.st_size), path: path)
        }
        let contents: Data
        do {
            contents = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandError.failure("cannot read \(shown): " + FileErrors.reason(error, path: path))
        }
        // A pipe or a device has no size until it is read.
        try checkSize(contents.count, path: path)
        return contents
    }

    /// The name an attachment read from `path` gets: the path's last component.
    static func fileName(of path: String) -> String {
        URL(fileURLWithPath: path).lastPathComponent
    }

    private static func checkSize(_ size: Int, path: String) throws {
        do {
            try Attachment.validate(size: size, fileName: fileName(of: path))
        } catch let error as PersistError {
            throw CommandError.failure("cannot attach \(TerminalText.visible(path)): " + error.message)
        }
    }
}
