/// The project and tag names of a set of tasks, and the days they are planned for, read at once
/// (``TaskStore/labels(of:)``).
public struct TaskLabels: Sendable {
    let projectNames: [ObjectIdentifier: String]
    let tagNames: [ObjectIdentifier: [String]]
    let plannedDays: [ObjectIdentifier: CalendarDay]

    /// The day whose plan the task is on; nil for none (or a task not asked about).
    public func plannedDay(of task: TaskItem) -> CalendarDay? {
        plannedDays[ObjectIdentifier(task)]
    }

    /// The name of the task's project; nil for none (or a task not asked about).
    public func project(of task: TaskItem) -> String? {
        projectNames[ObjectIdentifier(task)]
    }

    /// The names of the task's tags, sorted without regard to case.
    public func tags(of task: TaskItem) -> [String] {
        (tagNames[ObjectIdentifier(task)] ?? []).sorted { ($0.lowercased(), $0) < ($1.lowercased(), $1) }
    }
}
