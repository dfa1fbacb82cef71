import Foundation

/// The folder beside a store file that holds the values of its `.externalStorage` attributes
/// too large for their rows: `<store file>-external/`, one file per value, named by the UUID
/// its row's reference holds (see ``ExternalReference``).
///
/// A value is written as `<UUID>.tmp`, flushed to disk (`fsync`) and renamed to `<UUID>`;
/// once a save has written its files the folder itself is flushed, and only then does the
/// save commit. So a committed row never names a file that a crash can lose, and a file a
/// crash leaves behind is one no committed row names: the sweep removes it when the store is
/// next opened for writing (``ExternalDataSweep``).
///
/// Files are written only by the store's writer inside a save's transaction, which holds
/// SQLite's write lock: no other connection or process writes or sweeps meanwhile.
final class ExternalDataFolder: @unchecked Sendable {
    // @unchecked Sendable: `written` and `madeFolder` are only touched by the store's writer,
    // under the store's writer lock; reading a value touches no state.

    /// What the folder's name adds to the store file's: `Tasks.sqlite-external`.
    static let suffix = "-external"
    /// What a file being written is called until it is complete: `<UUID>.tmp`.
    static let temporarySuffix = ".tmp"

    /// The folder's path: next to the store file's real path (a store reached through a
    /// symbolic link keeps its values next to the link's target, as its `-wal` file).
    let path: String
    /// The files the save in progress wrote, in order.
    private var written: [ExternalReference] = []
    /// Whether the save in progress made the folder (its parent is flushed too).
    private var madeFolder = false

    init(storePath realPath: String) {
        path = realPath + Self.suffix
    }

    /// The path of a value's file.
    func filePath(_ reference: ExternalReference) -> String { path + "/" + reference.fileName }

    /// Whether the folder exists.
    var exists: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    // MARK: Reading

    /// Why a value's file could not be read.
    enum ReadFailure: Error, Equatable {
        /// There is no such file.
        case missing
        /// The file does not have the value's size (truncated, or another file in its place).
        case wrongSize(Int)
        /// The file exists but cannot be read; the system's reason.
        case unreadable(String)
    }

    /// The bytes of a value, checked against the size its reference records.
    func contents(of reference: ExternalReference) -> Result<Data, ReadFailure> {
        let descriptor = open(filePath(reference), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return .failure(errno == ENOENT ? .missing : .unreadable(Self.systemError()))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.unreadable(Self.systemError())) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.unreadable("it is not a regular file")) }
        guard Int(info.st_size) == reference.byteCount else { return .failure(.wrongSize(Int(info.st_size))) }
        var data = Data(count: reference.byteCount)
        let count = data.count
        let received: Int = data.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            var done = 0
            while done < count {
                let chunk = read(descriptor, base + done, min(count - done, 1 << 30))
                if chunk < 0 && errno == EINTR { continue }
                if chunk <= 0 { return chunk < 0 ? -1 : done }
                done += chunk
            }
            return done
        }
        guard received >= 0 else { return .failure(.unreadable(Self.systemError())) }
        guard received == count else { return .failure(.wrongSize(received)) }
        return .success(data)
    }

    /// What is wrong with a value's file, judged by its size only (the file is not read);
    /// nil when it looks whole.
    func problem(with reference: ExternalReference) -> ReadFailure? {
        var info = stat()
        guard stat(filePath(reference), &info) == 0 else { return errno == ENOENT ? .missing : .unreadable(Self.systemError()) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .unreadable("it is not a regular file") }
        return Int(info.st_size) == reference.byteCount ? nil : .wrongSize(Int(info.st_size))
    }

    // MARK: Writing (the store's writer, inside a save's transaction)

    /// Forgets the files of a save that ended either way: a new save starts.
    func beginSave() {
        written.removeAll(keepingCapacity: true)
        madeFolder = false
    }

    /// Writes a value to a new file, flushed to disk, and returns its reference. The folder is
    /// made if it is missing.
    ///
    /// - Parameter owner: `Entity.attribute`, for the error message.
    /// - Throws: ``PersistError`` `.cannotOpenStore` naming the folder and the system's reason
    ///   (no space, no permission); nothing is left behind then.
    func newFile(holding data: Data, for owner: String) throws -> ExternalReference {
        try makeFolder(for: owner)
        let reference = ExternalReference(newFileFor: data.count)
        let final = filePath(reference)
        let temporary = final + Self.temporarySuffix
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw writeError(owner, Self.systemError()) }
        var failure: String?
        let sent: Int = data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            var done = 0
            while done < buffer.count {
                let chunk = write(descriptor, base + done, min(buffer.count - done, 1 << 30))
                if chunk < 0 && errno == EINTR { continue }
                if chunk <= 0 {
                    failure = Self.systemError()
                    return done
                }
                done += chunk
            }
            return done
        }
        if failure == nil, sent == data.count, fsync(descriptor) != 0 { failure = Self.systemError() }
        close(descriptor)
        if failure == nil, rename(temporary, final) != 0 { failure = Self.systemError() }
        if let failure {
            unlink(temporary)
            throw writeError(owner, failure)
        }
        self.written.append(reference)
        return reference
    }

    /// Flushes the folder's entries (and, if the save made the folder, its parent's), so that
    /// the files renamed in it survive a crash: called after the save's last file, before the
    /// commit that names them.
    func flush() throws {
        guard !written.isEmpty else { return }
        if madeFolder { try Self.sync(directory: (path as NSString).deletingLastPathComponent, folder: path) }
        try Self.sync(directory: path, folder: path)
    }

    /// The files the save in progress wrote, handed over once.
    func takeWritten() -> [ExternalReference] {
        defer { written.removeAll(keepingCapacity: true) }
        return written
    }

    /// Removes the files of a save that did not commit.
    func discardWritten() {
        for reference in takeWritten() { remove(reference.fileName) }
    }

    /// Removes a file of the folder by name (a missing one is fine).
    func remove(_ fileName: String) {
        unlink(path + "/" + fileName)
    }

    /// The names of the regular files in the folder (none when it is missing).
    func fileNames() -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return [] }
        return names.filter { name in
            var info = stat()
            return lstat(path + "/" + name, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        }
    }

    /// Removes the folder if it is empty.
    func removeIfEmpty() {
        rmdir(path)
    }

    private func makeFolder(for owner: String) throws {
        if mkdir(path, 0o755) == 0 {
            madeFolder = true
            return
        }
        guard errno == EEXIST else { throw writeError(owner, Self.systemError()) }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw writeError(owner, "it is not a directory")
        }
    }

    private static func sync(directory: String, folder: String) throws {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw PersistError(.cannotOpenStore, "Cannot flush the folder \(directory): \(systemError())", store: folder)
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw PersistError(.cannotOpenStore, "Cannot flush the folder \(directory): \(systemError())", store: folder)
        }
    }

    private func writeError(_ owner: String, _ reason: String) -> PersistError {
        let parts = owner.split(separator: ".", maxSplits: 1).map(String.init)
        return PersistError(.cannotOpenStore, "Cannot write a value of \(owner) to the folder \(path): \(reason); nothing was saved",
                            entity: parts.first, attribute: parts.count > 1 ? parts[1] : nil, store: path)
    }

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }
}

extension ExternalDataFolder {
    /// The folder of a store just opened for writing: swept (see ``ExternalDataSweep``), and
    /// the writer's log of references installed (see ``ExternalDataLog``). nil for a model
    /// without `.externalStorage`, whose folder, if an older version left one, is swept empty
    /// and removed.
    static func prepareWriter(_ connection: SQLiteConnection, model: ManagedObjectModel,
                              storePath realPath: String) throws -> ExternalDataFolder? {
        let folder = ExternalDataFolder(storePath: realPath)
        try ExternalDataSweep.run(connection, model: model, folder: folder)
        guard model.hasExternalStorage else { return nil }
        try ExternalDataLog.install(on: connection, model: model)
        return folder
    }
}

extension ExternalDataFolder.ReadFailure {
    /// The error a failed read is: `.externalDataUnavailable`, naming the attribute, the
    /// objects and the file, and what is wrong with the file.
    func error(entity: String, attribute: String, file: String, objectIDs: [ObjectID]) -> PersistError {
        let problem: String
        switch self {
        case .missing: problem = "its file \(file) is missing"
        case .wrongSize(let size): problem = "its file \(file) is damaged (it has \(size) bytes, not the value's size)"
        case .unreadable(let reason): problem = "its file \(file) cannot be read (\(reason))"
        }
        let whose = objectIDs.count == 1 ? " of \(objectIDs[0])" : ""
        return PersistError(.externalDataUnavailable,
            "The value of \(entity).\(attribute)\(whose) is stored outside the database, and \(problem): the store's folder "
            + "(\((file as NSString).deletingLastPathComponent)) must be kept with the store file",
            entity: entity, attribute: attribute, objectIDs: objectIDs, store: file)
    }
}
