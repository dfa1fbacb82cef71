import Foundation

/// What a day's review recorded (``TaskStore/review(of:)``): when it was reviewed, how many
/// tasks the plan held, how many were done, and where the others went, in all and per project.
///
/// In an export document (version 3), under `reviews`:
///
/// ```json
/// {"backlogged": 1, "carried": 0, "completed": 2, "day": "2026-11-21", "planned": 3,
///  "projects": [{"completed": 2, "planned": 2, "project": "Home"}, {"completed": 0, "planned": 1, "project": null}],
///  "reviewedAt": "2026-11-21T18:00:00.000Z"}
/// ```
public struct DayReview: Codable, Sendable, Hashable {
    /// The day reviewed.
    public var day: CalendarDay
    /// When it was reviewed.
    public var reviewedAt: Date
    /// The tasks its plan held.
    public var planned: Int
    /// Those done.
    public var completed: Int
    /// Those not done that went to the backlog.
    public var backlogged: Int
    /// Those not done that were carried to the next day.
    public var carried: Int
    /// The counts per project, by name, tasks in no project last.
    public var projects: [ProjectCompletion]

    /// A review with these values.
    public init(day: CalendarDay, reviewedAt: Date, planned: Int, completed: Int, backlogged: Int, carried: Int,
                projects: [ProjectCompletion]) {
        self.day = day
        self.reviewedAt = reviewedAt
        self.planned = planned
        self.completed = completed
        self.backlogged = backlogged
        self.carried = carried
        self.projects = projects
    }

    /// The tasks not done.
    public var notCompleted: Int { planned - completed }

    private enum CodingKeys: String, CodingKey { case day, reviewedAt, planned, completed, backlogged, carried, projects }

    /// Reads a review; `projects` may be missing.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .day)
        guard let day = CalendarDay(isoText: text) else {
            throw DecodingError.dataCorruptedError(forKey: .day, in: container, debugDescription: "'\(text)' is not a day (like 2026-11-25)")
        }
        self.day = day
        reviewedAt = try container.decode(Date.self, forKey: .reviewedAt)
        planned = try container.decode(Int.self, forKey: .planned)
        completed = try container.decode(Int.self, forKey: .completed)
        backlogged = try container.decode(Int.self, forKey: .backlogged)
        carried = try container.decode(Int.self, forKey: .carried)
        projects = try container.decodeIfPresent([ProjectCompletion].self, forKey: .projects) ?? []
    }

    /// Writes every key; the day as `2026-11-21`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(day.isoText, forKey: .day)
        try container.encode(reviewedAt, forKey: .reviewedAt)
        try container.encode(planned, forKey: .planned)
        try container.encode(completed, forKey: .completed)
        try container.encode(backlogged, forKey: .backlogged)
        try container.encode(carried, forKey: .carried)
        try container.encode(projects, forKey: .projects)
    }

    /// The problem with the counts, if any: negative, more done than planned, or the not-done
    /// ones not all accounted for.
    var problem: String? {
        if [planned, completed, backlogged, carried].contains(where: { $0 < 0 }) { return "a count is negative" }
        if completed > planned { return "more tasks done (\(completed)) than planned (\(planned))" }
        if backlogged + carried != planned - completed {
            return "the \(planned - completed) not done are not the \(backlogged) backlogged and \(carried) carried"
        }
        if projects.contains(where: { $0.planned < 0 || $0.completed < 0 || $0.completed > $0.planned }) {
            return "a project's counts are impossible"
        }
        return nil
    }

    /// The review a day's record holds; nil for a day not reviewed.
    public init?(_ record: Day) {
        guard let reviewedAt = record.reviewedAt, let stats = record.stats else { return nil }
        self.init(day: record.calendarDay, reviewedAt: reviewedAt, planned: stats.planned, completed: stats.completed,
                  backlogged: stats.backlogged, carried: stats.carried, projects: stats.projects)
    }
}
