import Foundation
import PersistKit

extension TaskStore {
    /// Attaches a file's bytes to a task, after its other attachments, and saves. Bytes above
    /// 100 KB are kept in a file in the folder beside the store, written and flushed before
    /// the save commits.
    ///
    /// ```swift
    /// let photo = try store.attach(try Data(contentsOf: url), fileName: url.lastPathComponent, to: task)
    /// ```
    ///
    /// - Parameters:
    ///   - contents: the file's bytes.
    ///   - fileName: the file's name, shown and exported with it.
    ///   - mediaType: the media type; nil takes it from the file name's extension
    ///     (``MediaType/forFileName(_:)``).
    ///   - task: the task the file belongs to, of this store.
    /// - Throws: `PersistError` `.validation` for a bad file name or media type
    ///   (``Attachment/validate(fileName:)``, ``Attachment/validate(mediaType:)``) or more than
    ///   ``Attachment/maximumSize`` bytes,
    ///   `.invalidObject` for a task of another store or a removed one, or any save error;
    ///   nothing is attached then.
    @discardableResult
    public func attach(_ contents: Data, fileName: String, mediaType: String? = nil, to task: TaskItem) throws -> Attachment {
        try checkOwned(task)
        try Attachment.validate(fileName: fileName)
        try Attachment.validate(size: contents.count, fileName: fileName)
        let type = mediaType ?? MediaType.forFileName(fileName)
        try Attachment.validate(mediaType: type)
        let record = AttachmentRecord(fileName: fileName, mediaType: type, createdAt: TaskDateCoding.normalized(clock()),
                                      contents: contents)
        return try saving { insertAttachment(record, into: task) }
    }

    /// A new attachment of `record`'s values, after the task's others; not saved.
    func insertAttachment(_ record: AttachmentRecord, into task: TaskItem) -> Attachment {
        let attachment = Attachment(context: context)
        attachment.fileName = record.fileName
        attachment.mediaType = record.mediaType
        attachment.size = record.contents.count
        attachment.contents = record.contents
        attachment.createdAt = record.createdAt
        task.attachments.append(attachment)
        return attachment
    }

    /// A task's attachment by its number in ``TaskItem/attachments``, counted from 1 as
    /// `tasks attachments` shows them.
    ///
    /// - Throws: `PersistError` `.objectNotFound`: `task #3 has no attachment 4
    ///   (it has 2)`.
    public func attachment(_ number: Int, of task: TaskItem) throws -> Attachment {
        try checkOwned(task)
        let attachments = task.attachments
        guard number >= 1, number <= attachments.count else {
            let has = attachments.isEmpty ? "it has none" : "it has \(attachments.count)"
            throw PersistError(.objectNotFound, "task \(task.reference) has no attachment \(number) (\(has))",
                               entity: Attachment.entityName, objectIDs: [task.objectID])
        }
        return attachments[number - 1]
    }

    /// Removes an attachment from its task and saves; its file, if it had one, is removed
    /// once the save commits.
    ///
    /// - Throws: `PersistError` `.invalidObject` for an attachment of another
    ///   store or one removed already, or any save error; nothing changes then.
    public func detach(_ attachment: Attachment) throws {
        guard attachment.managedObjectContext === context, !attachment.isDeleted else {
            throw PersistError(.invalidObject,
                attachment.isDeleted ? "the attachment was removed" : "the attachment belongs to another task store",
                entity: Attachment.entityName, objectIDs: [attachment.objectID])
        }
        try saving { context.delete(attachment) }
    }
}
