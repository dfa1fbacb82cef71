import Foundation
import PersistKit

extension TaskStore {
    /// Every task, in list order, as an export document (JSON; see ``TaskDocument``).
    ///
    /// ```swift
    /// let data = try store.exportDocument()
    /// try data.write(to: backupURL)
    /// ```
    ///
    /// - Throws: ``PersistKit/PersistError`` when the store cannot be read.
    public func exportDocument() throws -> Data {
        TaskDocument(tasks: try tasks().map(TaskRecord.init)).encoded()
    }

    /// Adds the tasks of an export document, all in one save: every task, or (when it throws)
    /// none.
    ///
    /// Names are trimmed and checked as ``add(name:notes:due:)`` checks them; creation dates,
    /// due dates and completion are kept.
    ///
    /// ```swift
    /// let result = try store.importDocument(data)            // duplicates skipped
    /// print("\(result.imported) imported, \(result.skipped) skipped")
    /// ```
    ///
    /// - Throws: ``PersistKit/PersistError`` `.typeMismatch` when `data` is not a task export,
    ///   `.validation` naming the task whose name is bad, or any save error.
    @discardableResult
    public func importDocument(_ data: Data, duplicates: DuplicatePolicy = .skip) throws -> ImportResult {
        try importRecords(try TaskDocument(data: data).tasks, duplicates: duplicates)
    }

    /// Adds tasks from records, in one save; see ``importDocument(_:duplicates:)``.
    ///
    /// - Throws: ``PersistKit/PersistError`` `.validation` naming the record whose name is bad,
    ///   or any save error; nothing is added then.
    @discardableResult
    public func importRecords(_ records: [TaskRecord], duplicates: DuplicatePolicy = .skip) throws -> ImportResult {
        struct Identity: Hashable {
            let name: String
            let createdAt: Date
        }
        var cleaned: [TaskRecord] = []
        for (index, record) in records.enumerated() {
            var record = record
            record.name = TaskStore.cleanName(record.name)
            record.notes = TaskStore.cleanNotes(record.notes)
            record.due = record.due.map(TaskDateCoding.normalized)
            record.createdAt = TaskDateCoding.normalized(record.createdAt)
            do {
                try TaskItem.validate(name: record.name)
            } catch var error as PersistError {
                error.message = "task \(index + 1) of the document: " + error.message
                throw error
            }
            cleaned.append(record)
        }
        var existing = Set<Identity>()
        if duplicates == .skip {
            existing = Set(try tasks().map { Identity(name: $0.name, createdAt: $0.createdAt) })
        }
        var result = ImportResult(imported: 0, skipped: 0)
        try saving {
            for record in cleaned {
                if existing.contains(Identity(name: record.name, createdAt: record.createdAt)) {
                    result.skipped += 1
                    continue
                }
                let task = TaskItem(context: context)
                task.name = record.name
                task.notes = record.notes
                task.due = record.due
                task.isComplete = record.isComplete
                task.createdAt = record.createdAt
                result.imported += 1
            }
        }
        return result
    }
}
