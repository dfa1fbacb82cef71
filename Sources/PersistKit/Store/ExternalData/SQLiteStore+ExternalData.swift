import Foundation

/// Saving `.externalStorage` values: each save moves the values too large for their rows into
/// files before it writes the rows, flushes the files before it commits, and removes the files
/// no row names after it commits.
///
/// Step by step, for a save (a context's, a batch request's) on a store that has such
/// attributes, all under the writer lock and inside the save's `BEGIN IMMEDIATE` transaction:
/// 1. each new value larger than its attribute's threshold is written to `<UUID>.tmp`, flushed,
///    and renamed to `<UUID>`; the row gets the reference `<UUID>:<byte count>` instead
///    (``externalize(_:_:)``);
/// 2. the rows are written; SQLite's triggers log every reference a row takes or lets go
///    (``ExternalDataLog``);
/// 3. the folder is flushed, then the transaction commits. A save that fails before the
///    commit removes the files it wrote; one killed before the commit leaves files no row
///    names, which the next open's sweep removes;
/// 4. after the commit, the files whose references were let go (values replaced, rows
///    deleted) and those written but not used are removed. A process killed before that
///    leaves them to the sweep too.
extension SQLiteStore {
    /// Runs a save's body, then flushes the files it wrote, before the caller commits. A body
    /// that throws removes them: nothing committed names them.
    func writingExternalData<T>(_ body: () throws -> T) throws -> T {
        guard let externalData else { return try body() }
        externalData.beginSave()
        do {
            let result = try body()
            try externalData.flush()
            return result
        } catch {
            externalData.discardWritten()
            throw error
        }
    }

    /// After a commit: removes the files that no row names any more. Never throws (the save
    /// is committed): a file it cannot remove is left to the next sweep.
    func releaseExternalData(_ writer: SQLiteConnection) {
        guard let externalData else { return }
        let written = externalData.takeWritten()
        guard let changes = try? ExternalDataLog.drain(writer) else { return }
        let released = changes.unreferenced(written: written)
        guard !released.isEmpty else { return }
        // Under `synchronous` NORMAL or OFF a commit reaches the disk at the next checkpoint:
        // until then a power loss could undo it, and bring back rows naming these files.
        if description.synchronous != .full { Self.flushWAL(of: writer.path) }
        for name in released { externalData.remove(name) }
    }

    private static func flushWAL(of path: String) {
        let descriptor = open(path + "-wal", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    // MARK: Moving values into files

    /// Moves the values of a save's rows that are too large for them into files: in every
    /// inserted row and every changed slot of an updated one, each `.externalStorage` value
    /// larger than its attribute's threshold. Returns where each went, for the context's
    /// objects to hold the references from then on.
    func externalize(_ plan: inout StoreWritePlan, _ folder: ExternalDataFolder) throws -> [ExternalizedValue] {
        var moved: [ExternalizedValue] = []
        var position = 0
        for run in plan.inserts.indices {
            let entity = plan.inserts[run].entity
            guard !entity.externalStorageSlots.isEmpty else {
                position += plan.inserts[run].rows.count
                continue
            }
            for row in plan.inserts[run].rows.indices {
                for slot in entity.externalStorageSlots {
                    guard let reference = try externalized(plan.inserts[run].rows[row][slot], of: entity, slot: slot, folder) else { continue }
                    plan.inserts[run].rows[row][slot] = reference.storedValue
                    moved.append(ExternalizedValue(row: .insert(position), slot: slot, reference: reference))
                }
                position += 1
            }
        }
        for index in plan.updates.indices where !plan.updates[index].entity.externalStorageSlots.isEmpty {
            let update = plan.updates[index]
            var storage = update.storage
            var changed = false
            for slot in update.slots where update.entity.externalStorageSlots.contains(slot) {
                guard let reference = try externalized(storage[slot], of: update.entity, slot: slot, folder) else { continue }
                storage[slot] = reference.storedValue
                moved.append(ExternalizedValue(row: .update(index), slot: slot, reference: reference))
                changed = true
            }
            if changed {
                plan.updates[index] = .init(entity: update.entity, key: update.key, version: update.version, slots: update.slots,
                                            storage: storage, committed: update.committed)
            }
        }
        return moved
    }

    /// Moves the large values of one batch-inserted row into files.
    func externalize(_ row: inout ContiguousArray<SQLValue>, of entity: EntityDescription, _ folder: ExternalDataFolder) throws {
        for slot in entity.externalStorageSlots where slot < row.count {
            if let reference = try externalized(row[slot], of: entity, slot: slot, folder) { row[slot] = reference.storedValue }
        }
    }

    /// The reference of a value written to a new file now, or nil when the value stays as it
    /// is (nil, or no larger than the threshold). A reference to another row's file (a value
    /// carried over from another object) gets a file of its own: each file has one row, so
    /// removing a row's file never takes another row's value.
    private func externalized(_ value: SQLValue, of entity: EntityDescription, slot: Int,
                              _ folder: ExternalDataFolder) throws -> ExternalReference? {
        let attribute = entity.attributes[slot]
        guard let threshold = attribute.externalStorageThreshold else { return nil }
        let owner = entity.name + "." + attribute.name
        switch value {
        case .blob(let data) where data.count > threshold:
            return try folder.newFile(holding: data, for: owner)
        case .text(let text):
            guard let source = ExternalReference(text) else {
                throw PersistError(.typeMismatch, "Cannot save \(owner): it holds text where binary data is expected",
                                   entity: entity.name, attribute: attribute.name)
            }
            switch folder.contents(of: source) {
            case .success(let data): return try folder.newFile(holding: data, for: owner)
            case .failure(let failure):
                throw failure.error(entity: entity.name, attribute: attribute.name, file: folder.filePath(source), objectIDs: [])
            }
        default:
            return nil
        }
    }
}
