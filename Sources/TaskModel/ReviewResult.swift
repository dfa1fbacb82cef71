/// What ``TaskStore/review(_:carry:calendar:)`` did: the review recorded, and the tasks it
/// found done, moved to the backlog and carried to the next day.
///
/// A day is reviewed once: reviewing it again changes nothing, and says so (``isNew`` is
/// false, and only ``done`` is filled, from the day's plan as it is).
public struct ReviewResult {
    /// The review, as recorded.
    public let review: DayReview
    /// Whether this call reviewed the day; false when it was reviewed already.
    public let isNew: Bool
    /// The tasks of the plan that were done, in plan order.
    public let done: [TaskItem]
    /// The tasks not done that went to the backlog.
    public let backlogged: [TaskItem]
    /// The tasks not done carried to ``carriedTo``'s plan.
    public let carried: [TaskItem]
    /// The day the carried tasks went to; nil when none was carried.
    public let carriedTo: CalendarDay?
}
