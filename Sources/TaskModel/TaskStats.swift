/// Figures about a task store: completions per day, how each day's plan ended and completion
/// per project, open tasks by project and by priority, overdue tasks
/// (``TaskStore/stats(days:now:calendar:)``).
public struct TaskStats: Sendable, Hashable {
    /// A day and how many tasks were completed on it.
    public struct DayCount: Sendable, Hashable {
        /// The (local) calendar day.
        public var day: CalendarDay
        /// Tasks completed that day.
        public var count: Int

        /// A day's count.
        public init(day: CalendarDay, count: Int) {
            self.day = day
            self.count = count
        }
    }

    /// A project (nil: no project) and how many open tasks it has.
    public struct ProjectCount: Sendable, Hashable {
        /// The project's name; nil for tasks in no project.
        public var project: String?
        /// Its open tasks.
        public var count: Int

        /// A project's count.
        public init(project: String?, count: Int) {
            self.project = project
            self.count = count
        }
    }

    /// Tasks completed on each of the last days, oldest first, today last. Tasks completed before
    /// completion times were kept (TaskModel version 1) count on no day.
    public var completedPerDay: [DayCount]
    /// Open tasks of each project that has some, by name, then those in no project (if any).
    public var openByProject: [ProjectCount]
    /// Open tasks of each priority, high first; every priority is listed.
    public var openByPriority: [(priority: TaskPriority, count: Int)]
    /// Each day's plan over the same days, oldest first: how many tasks it held and how many
    /// were done.
    public var plannedPerDay: [DayOutcome]
    /// Over the same days, each project's planned tasks and how many were done, by name,
    /// tasks in no project last; only projects with planned tasks.
    public var completionByProject: [ProjectCompletion]
    /// Open tasks due before today.
    public var overdue: Int
    /// All open tasks.
    public var open: Int
    /// All done tasks.
    public var done: Int

    /// Two figures are equal when every count is.
    public static func == (lhs: TaskStats, rhs: TaskStats) -> Bool {
        lhs.completedPerDay == rhs.completedPerDay && lhs.plannedPerDay == rhs.plannedPerDay
            && lhs.completionByProject == rhs.completionByProject && lhs.openByProject == rhs.openByProject
            && lhs.openByPriority.map(\.count) == rhs.openByPriority.map(\.count) && lhs.overdue == rhs.overdue
            && lhs.open == rhs.open && lhs.done == rhs.done
    }

    /// Hashes every count.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(completedPerDay)
        hasher.combine(plannedPerDay)
        hasher.combine(completionByProject)
        hasher.combine(openByProject)
        hasher.combine(openByPriority.map(\.count))
        hasher.combine(overdue)
        hasher.combine(open)
        hasher.combine(done)
    }
}
