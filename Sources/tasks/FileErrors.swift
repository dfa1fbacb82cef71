import Foundation

/// Short reasons for file errors, instead of Foundation's long descriptions.
enum FileErrors {
    static func reason(_ error: Error, path: String) -> String {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists && isDirectory.boolValue { return "it is a directory" }
        let nsError = error as NSError
        if let posix = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain,
           let message = strerror(Int32(posix.code)) {
            return String(cString: message).lowercased()
        }
        switch nsError.code {
        case NSFileReadNoSuchFileError: return "no such file"
        case NSFileNoSuchFileError: return "no such file or directory"
        case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "permission denied"
        case NSFileWriteOutOfSpaceError: return "no space left"
        default: return exists ? "it cannot be accessed" : "no such file or directory"
        }
    }
}
