import Foundation
import PersistKit

/// A calendar day of the plan: the tasks planned for it, and once it is reviewed, what its
/// review recorded (``stats``).
///
/// ```swift
/// try store.plan([task], on: today)                 // makes the day's record if needed
/// let day = try store.day(today)
/// day?.tasks.count                                    // what it holds
/// day?.stats?.completed                               // after `review`
/// ```
///
/// A day exists once something was planned for it or it was reviewed; its date is unique.
/// Change days through ``TaskStore`` (``TaskStore/plan(_:on:)``, ``TaskStore/review(_:carry:calendar:)``),
/// which keeps the limits and records the review once.
public final class Day: ManagedObject {
    /// The day, as its midnight in UTC (as a task keeps a due day): read it as ``calendarDay``.
    @Attribute(.unique) public var date = Date(timeIntervalSince1970: 0)
    /// When the day was reviewed; nil until it is. A day is reviewed once.
    @Attribute public var reviewedAt: Date?
    /// The tasks on the day's plan: open ones until the review moves them on, done ones for good.
    @Relationship public var tasks: Set<TaskItem>
    /// What the review recorded; nil until the day is reviewed.
    @Relationship(deleteRule: .cascade) public var stats: DayStats?

    /// The calendar day.
    public var calendarDay: CalendarDay { CalendarDay(storedInstant: date) }

    /// Whether the day was reviewed.
    public var isReviewed: Bool { reviewedAt != nil }
}
