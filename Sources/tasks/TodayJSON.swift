import Foundation
import TaskModel

/// The JSON of `tasks today --json`:
///
/// ```json
/// {"day": "2026-11-21", "reviewedAt": null,
///  "groups": [{"priority": "high", "limit": 1, "open": 1, "tasks": [...]}, ...normal, low],
///  "dueNotPlanned": [...], "unreviewedDays": ["2026-11-20"]}
/// ```
/// Tasks are as in `list --json`; `open` counts a group's tasks not done, what its limit
/// counts; `unreviewedDays` lists the days before today not reviewed that still hold open tasks.
struct TodayJSON: Encodable {
    struct Group: Encodable {
        let priority: String
        let limit: Int
        let open: Int
        let tasks: [TaskJSON.Row]
    }

    let day: String
    let reviewedAt: String?
    let groups: [Group]
    let dueNotPlanned: [TaskJSON.Row]
    let unreviewedDays: [String]

    init(day: CalendarDay, record: Day?, planned: [TaskItem], due: [TaskItem], limits: DayLimits, unreviewed: [CalendarDay],
         dates: DateText, labels: TaskLabels) {
        self.day = day.isoText
        reviewedAt = record?.reviewedAt.map(TaskDateCoding.string)
        groups = TaskPriority.allCases.reversed().map { priority in
            let tasks = planned.filter { $0.priority == priority }
            return Group(priority: priority.name, limit: limits[priority], open: tasks.filter { !$0.isComplete }.count,
                         tasks: tasks.map { TaskJSON.Row($0, dates: dates, labels: labels) })
        }
        dueNotPlanned = due.map { TaskJSON.Row($0, dates: dates, labels: labels) }
        unreviewedDays = unreviewed.map(\.isoText)
    }

    private enum CodingKeys: String, CodingKey { case day, reviewedAt, groups, dueNotPlanned, unreviewedDays }

    // By hand, so that a null reviewedAt is written, not left out.
    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(day, forKey: .day)
        try container.encode(reviewedAt, forKey: .reviewedAt)
        try container.encode(groups, forKey: .groups)
        try container.encode(dueNotPlanned, forKey: .dueNotPlanned)
        try container.encode(unreviewedDays, forKey: .unreviewedDays)
    }
}
