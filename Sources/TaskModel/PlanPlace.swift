/// Where a task stands in the day plan: on a day's plan, in the backlog, or neither (a task
/// never planned, or taken out of the backlog by being done).
///
/// ```swift
/// switch task.planPlace {
/// case .day(let day): "planned for \(day)"
/// case .backlog: "in the backlog"
/// case .none: "not planned"
/// }
/// ```
public enum PlanPlace: Sendable, Hashable {
    /// Neither planned nor in the backlog.
    case none
    /// Waiting in the backlog.
    case backlog
    /// On this day's plan.
    case day(CalendarDay)
}
