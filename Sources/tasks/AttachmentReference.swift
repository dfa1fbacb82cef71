import ArgumentParser
import TaskModel

/// The attachment a command acts on (`attachment`, `detach`): a task's reference and the
/// attachment's number on it, counted from 1 as `tasks attachments REF` shows them.
struct AttachmentReference: ParsableArguments {
    @Argument(help: ArgumentHelp("The task's number: 12 or '#12'.", valueName: "ref"))
    var reference: String
    @Argument(help: ArgumentHelp("The attachment's number, from tasks attachments.", valueName: "n"))
    var number: String

    /// The task's reference and the attachment's number, checked before any store is opened.
    ///
    /// - Throws: a usage ``CommandError`` for either that is not a number.
    func numbers() throws -> (task: Int64, attachment: Int) {
        (try Arguments.reference(reference), try Arguments.attachmentNumber(number))
    }

    /// The task and its attachment.
    ///
    /// - Throws: ``PersistKit/PersistError`` `.objectNotFound`: `no task #42`, `task #3 has no
    ///   attachment 4 (it has 2)`.
    static func find(_ numbers: (task: Int64, attachment: Int), in store: TaskStore) throws -> (task: TaskItem, attachment: Attachment) {
        let task = try store.task(withReference: numbers.task)
        return (task, try store.attachment(numbers.attachment, of: task))
    }
}
