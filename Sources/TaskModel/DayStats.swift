import Foundation
import PersistKit

/// What a day's review recorded: how many tasks its plan held and how they ended, in all and
/// per project, frozen at the review (a task removed or moved later does not change them).
///
/// ```swift
/// let stats = try store.day(day)?.stats
/// stats.map { "\($0.completed) of \($0.planned) done" }
/// ```
public final class DayStats: ManagedObject {
    /// The day reviewed.
    @Relationship(inverse: \Day.stats) public var day: Day?
    /// The tasks the plan held at the review.
    @Attribute public var planned = 0
    /// Those done.
    @Attribute public var completed = 0
    /// Those not done that went to the backlog.
    @Attribute public var backlogged = 0
    /// Those not done that were carried to the next day's plan.
    @Attribute public var carried = 0
    /// The counts per project, stored as JSON: read them as ``projects``.
    @Attribute var projectCounts = ProjectCompletionList()

    /// The same counts per project (tasks in no project under nil), by project name.
    public var projects: [ProjectCompletion] { projectCounts.items }

    /// Those not done (backlogged or carried).
    public var notCompleted: Int { planned - completed }
}
