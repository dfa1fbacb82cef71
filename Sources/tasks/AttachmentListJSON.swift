import Foundation
import TaskModel

/// The JSON of `tasks attachments REF --json`.
struct AttachmentListJSON: Encodable {
    struct Entry: Encodable {
        let number: Int
        let fileName: String
        let mediaType: String
        let size: Int
        let createdAt: Date
    }

    let task: Int64
    let attachments: [Entry]

    init(task: Int64, _ attachments: [Attachment]) {
        self.task = task
        self.attachments = attachments.enumerated().map { index, attachment in
            Entry(number: index + 1, fileName: attachment.fileName, mediaType: attachment.mediaType, size: attachment.size,
                  createdAt: attachment.createdAt)
        }
    }
}
