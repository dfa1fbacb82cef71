import Logging

/// What a context logs (see <doc:Logging>): each save, fetch and count, and each merge of other
/// contexts' saves at `.debug`; conflicts, and changes a merge policy dropped, at `.warning`.
/// Only names, counts and times: never an attribute's value.
extension ManagedObjectContext {
    /// The metadata every message of this context carries.
    private var logMetadata: Logger.Metadata {
        var metadata: Logger.Metadata = ["store": "\(store.displayPath)"]
        if let name { metadata["context"] = "\(name)" }
        return metadata
    }

    /// Logs a fetch that started at `started` (a ``LogSink/now()``; 0 when not timed).
    func logFetch(_ plan: FetchPlan, rows: Int, started: UInt64, what: String = "fetch") {
        guard let sink = logSink, sink.logsDebug, started != 0 else { return }
        sink.log(.debug, "\(what) \(plan.entity.name): \(rows) \(rows == 1 ? "row" : "rows") in \(LogSink.milliseconds(since: started)) ms",
                 metadata: logMetadata)
    }

    /// Logs a save that wrote `result`: its objects, rows and time.
    func logSave(_ pending: PendingSave, _ result: StoreWriteResult, started: UInt64) {
        guard let sink = logSink else { return }
        if sink.logsDebug, started != 0 {
            sink.log(.debug, "save: \(pending.inserts.count) inserted, \(pending.updates.count) updated, \(pending.deletes.count) deleted; "
                     + "\(result.rowsWritten) rows written in \(LogSink.milliseconds(since: started)) ms", metadata: logMetadata)
        }
        guard sink.logsWarnings, !result.settled.isEmpty else { return }
        let discarded = result.settled.filter { $0.outcome != .combined }.count
        sink.log(.warning, "save: \(result.settled.count) \(result.settled.count == 1 ? "object" : "objects") changed by another context "
                 + "or process since read, settled by merge policy \(mergePolicy)"
                 + (discarded > 0 ? " (\(discarded) kept as stored, their changes here dropped)" : ""), metadata: logMetadata)
    }

    /// Logs a conflict that refuses a save, and returns the error to throw.
    func logConflict(_ error: PersistError) -> PersistError {
        if let sink = logSink, sink.logsWarnings {
            sink.log(.warning, "save refused, conflict (merge policy \(mergePolicy)): \(error.message)", metadata: logMetadata)
        }
        return error
    }

    /// Logs that a child context's rollback or reset could not read its parent's state again.
    func logParentStateUnreadable(_ error: Error) {
        guard let sink = logSink, sink.logsWarnings else { return }
        sink.log(.warning, "child context: its parent's unsaved state could not be read again (\(error)); it shows the store's",
                 metadata: logMetadata)
    }

    /// Logs the changes a merge policy drops because another context or process deleted their objects.
    func logDiscardedChanges(_ objects: [ManagedObject]) {
        guard let sink = logSink, sink.logsWarnings else { return }
        sink.log(.warning, "save: \(objects.count) changed \(objects.count == 1 ? "object was" : "objects were") deleted by another context "
                 + "or process; merge policy \(mergePolicy) dropped the changes", metadata: logMetadata)
    }

    /// Logs a merge of other contexts' (or processes') saves.
    func logMerge(_ changes: [StoreChange], complete: Bool) {
        guard let sink = logSink, sink.logsDebug else { return }
        func count(_ keys: KeyPath<StoreChange, [String: [Int64]]>) -> Int {
            changes.reduce(0) { total, change in change[keyPath: keys].values.reduce(total) { $0 + $1.count } }
        }
        let external = changes.filter(\.isExternal).count
        var message = "merge: \(changes.count) \(changes.count == 1 ? "save" : "saves") of other contexts"
            + (external > 0 ? " (\(external) of other processes)" : "")
            + ": \(count(\.inserted)) inserted, \(count(\.updated)) updated, \(count(\.deleted)) deleted"
        if !complete { message += "; some changes are unknown, every object is read again" }
        sink.log(.debug, message, metadata: logMetadata)
    }
}
