import Foundation
import PersistKit

/// A reminder `tasks watch` has shown: the task's reference and the reminder time it had.
///
/// Kept apart from the task so that showing a reminder changes no task (a watching list would
/// report it as a change). A task whose reminder is moved has no notice for the new time, so the
/// new reminder is shown in its turn. References are never reused, so a removed task's notices
/// can never match another task; ``TaskStore/remove(_:)`` removes them anyway.
final class ReminderNotice: ManagedObject {
    /// The task's reference number.
    @Attribute var taskReference: Int64 = 0
    /// The task's `remindAt` when the reminder was shown.
    @Attribute var remindAt = Date(timeIntervalSince1970: 0)
    /// When it was shown.
    @Attribute var shownAt = Date(timeIntervalSince1970: 0)

    override class var uniquenessConstraints: [[String]] { [["taskReference", "remindAt"]] }
}
