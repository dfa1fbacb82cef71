import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checked writes: to a descriptor, and to a file replaced atomically, so that a full disk, a
/// closed pipe or an unwritable directory is reported instead of leaving a short file.
enum OutputFile {
    /// An `errno` from a failed system call.
    private struct SystemError: Error {
        let number: Int32
    }

    /// Writes all of `data` to the descriptor, retrying short and interrupted writes.
    ///
    /// - Returns: nil when everything was written, else the `errno` of the failure.
    static func writeAll(_ data: Data, to descriptor: Int32) -> Int32? {
        data.withUnsafeBytes { buffer -> Int32? in
            guard var address = buffer.baseAddress else { return nil }
            var remaining = buffer.count
            while remaining > 0 {
                let written = systemWrite(descriptor, address, remaining)
                if written < 0 && errno == EINTR { continue }
                if written < 0 { return errno }
                if written == 0 { return EIO }   // no progress and no error: give up rather than spin
                address += written
                remaining -= written
            }
            return nil
        }
    }

    /// Writes `data` to the file at `path`: a regular file (or a new one) is replaced
    /// atomically, through a temporary file in its directory, so that it is either the old
    /// file or the whole new one; a device or a pipe (`/dev/stdout`, a FIFO) is written in place.
    ///
    /// - Throws: a failure ``CommandError``: `cannot write PATH: no space left on device`.
    static func write(_ data: Data, toPath path: String) throws {
        do {
            var status = stat()
            let exists = stat(path, &status) == 0
            let kind = status.st_mode & S_IFMT
            if exists && kind == S_IFDIR {
                throw CommandError.failure("cannot write \(path): it is a directory")
            } else if exists && kind != S_IFREG {
                try writeInPlace(data, path: path)
            } else {
                // Replace what a symbolic link points to, not the link.
                let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
                try replace(target, with: data, mode: exists ? status.st_mode & 0o7777 : defaultMode())
            }
        } catch let error as SystemError {
            throw CommandError.failure("cannot write \(path): " + reason(error.number))
        }
    }

    /// `strerror`'s text, lower-cased as the rest of a message: "no space left on device".
    static func reason(_ number: Int32) -> String {
        guard let text = strerror(number) else { return "error \(number)" }
        return ErrorText.lowercasedFirst(String(cString: text))
    }

    private static func writeInPlace(_ data: Data, path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError(number: errno) }
        if let number = writeAll(data, to: descriptor) {
            _ = close(descriptor)
            throw SystemError(number: number)
        }
        if close(descriptor) != 0 { throw SystemError(number: errno) }
    }

    /// Writes a temporary file beside `path`, flushes it to disk, and renames it over `path`.
    private static func replace(_ path: String, with data: Data, mode: mode_t) throws {
        let url = URL(fileURLWithPath: path)
        let template = url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".XXXXXX").path
        var name = Array(template.utf8CString)
        var descriptor = mkstemp(&name)
        guard descriptor >= 0 else { throw SystemError(number: errno) }
        let temporary = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do {
            // mkstemp makes the file private (0600): give it the old file's mode, or the usual one.
            if fchmod(descriptor, mode) != 0 { throw SystemError(number: errno) }
            if let number = writeAll(data, to: descriptor) { throw SystemError(number: number) }
            // A full disk may only show when the data reaches it: at fsync or close.
            if fsync(descriptor) != 0 { throw SystemError(number: errno) }
            let closed = close(descriptor)
            descriptor = -1
            if closed != 0 { throw SystemError(number: errno) }
            if rename(temporary, path) != 0 { throw SystemError(number: errno) }
        } catch {
            if descriptor >= 0 { _ = close(descriptor) }
            _ = unlink(temporary)
            throw error
        }
    }

    /// 0666 less the process's umask: what `open(O_CREAT)` would have given a new file.
    private static func defaultMode() -> mode_t {
        let mask = umask(0)
        _ = umask(mask)
        return 0o666 & ~mask
    }
}

/// `write(2)`, outside ``OutputFile`` whose own `write` would shadow it.
private func systemWrite(_ descriptor: Int32, _ address: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, address, count)
}
