/// How a day's plan ended, or stands: the tasks it held and how many were done. A reviewed
/// day's figures are its review's; a day not reviewed (today, or one left unreviewed) counts
/// the plan as it is.
public struct DayOutcome: Sendable, Hashable {
    /// The day.
    public var day: CalendarDay
    /// The tasks its plan held (at the review, for a reviewed day).
    public var planned: Int
    /// Those done.
    public var completed: Int
    /// Whether the day was reviewed.
    public var isReviewed: Bool

    /// A day's figures.
    public init(day: CalendarDay, planned: Int, completed: Int, isReviewed: Bool) {
        self.day = day
        self.planned = planned
        self.completed = completed
        self.isReviewed = isReviewed
    }

    /// The tasks not done.
    public var notCompleted: Int { planned - completed }
}
