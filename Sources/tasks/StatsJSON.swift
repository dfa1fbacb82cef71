import Foundation
import TaskModel

/// The JSON of `tasks stats --json`: every key always present.
///
/// ```json
/// {"days": 14, "completedPerDay": [{"day": "2026-11-10", "count": 2}, ...],
///  "plannedPerDay": [{"day": "2026-11-10", "planned": 3, "completed": 2, "notCompleted": 1, "reviewed": true}, ...],
///  "completionByProject": [{"project": "Home", "planned": 4, "completed": 3}, {"project": null, ...}],
///  "openByProject": [{"project": "Home", "count": 3}, {"project": null, "count": 1}],
///  "openByPriority": {"high": 1, "normal": 3, "low": 0}, "overdue": 1, "open": 4, "done": 9}
/// ```
struct StatsJSON: Encodable {
    struct DayCount: Encodable {
        let day: String
        let count: Int
    }

    struct ProjectCount: Encodable {
        let project: String?
        let count: Int

        private enum CodingKeys: String, CodingKey { case project, count }

        // By hand, so that a null project is written, not left out.
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(project, forKey: .project)
            try container.encode(count, forKey: .count)
        }
    }

    struct PlannedDay: Encodable {
        let day: String
        let planned: Int
        let completed: Int
        let notCompleted: Int
        let reviewed: Bool
    }

    let days: Int
    let completedPerDay: [DayCount]
    let plannedPerDay: [PlannedDay]
    let completionByProject: [ProjectCompletionJSON]
    let openByProject: [ProjectCount]
    let openByPriority: [String: Int]
    let overdue: Int
    let open: Int
    let done: Int

    init(_ stats: TaskStats) {
        days = stats.completedPerDay.count
        completedPerDay = stats.completedPerDay.map { DayCount(day: $0.day.isoText, count: $0.count) }
        plannedPerDay = stats.plannedPerDay.map {
            PlannedDay(day: $0.day.isoText, planned: $0.planned, completed: $0.completed, notCompleted: $0.notCompleted,
                       reviewed: $0.isReviewed)
        }
        completionByProject = stats.completionByProject.map(ProjectCompletionJSON.init)
        openByProject = stats.openByProject.map { ProjectCount(project: $0.project, count: $0.count) }
        openByPriority = Dictionary(uniqueKeysWithValues: stats.openByPriority.map { ($0.priority.name, $0.count) })
        overdue = stats.overdue
        open = stats.open
        done = stats.done
    }
}
