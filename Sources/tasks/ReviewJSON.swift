import Foundation
import TaskModel

/// The JSON of `tasks review --json`: the review as recorded, and which tasks it found done
/// and where it moved the others (empty lists for a day reviewed already).
///
/// ```json
/// {"day": "2026-11-21", "reviewedAt": "2026-11-21T18:00:00.000Z", "isNew": true, "planned": 3,
///  "completed": 2, "backlogged": 1, "carried": 0, "carriedTo": null,
///  "projects": [{"project": "Home", "planned": 2, "completed": 2}, {"project": null, ...}],
///  "done": [5, 6], "toBacklog": [2], "carriedTasks": []}
/// ```
struct ReviewJSON: Encodable {
    let day: String
    let reviewedAt: String
    let isNew: Bool
    let planned: Int
    let completed: Int
    let backlogged: Int
    let carried: Int
    let carriedTo: String?
    let projects: [ProjectCompletionJSON]
    let done: [Int64]
    let toBacklog: [Int64]
    let carriedTasks: [Int64]

    init(_ result: ReviewResult) {
        let review = result.review
        day = review.day.isoText
        reviewedAt = TaskDateCoding.string(from: review.reviewedAt)
        isNew = result.isNew
        planned = review.planned
        completed = review.completed
        backlogged = review.backlogged
        carried = review.carried
        carriedTo = result.carriedTo?.isoText
        projects = review.projects.map(ProjectCompletionJSON.init)
        done = result.done.compactMap(\.referenceNumber)
        toBacklog = result.backlogged.compactMap(\.referenceNumber)
        carriedTasks = result.carried.compactMap(\.referenceNumber)
    }

    private enum CodingKeys: String, CodingKey {
        case day, reviewedAt, isNew, planned, completed, backlogged, carried, carriedTo, projects, done, toBacklog, carriedTasks
    }

    // By hand, so that a null carriedTo is written, not left out.
    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(day, forKey: .day)
        try container.encode(reviewedAt, forKey: .reviewedAt)
        try container.encode(isNew, forKey: .isNew)
        try container.encode(planned, forKey: .planned)
        try container.encode(completed, forKey: .completed)
        try container.encode(backlogged, forKey: .backlogged)
        try container.encode(carried, forKey: .carried)
        try container.encode(carriedTo, forKey: .carriedTo)
        try container.encode(projects, forKey: .projects)
        try container.encode(done, forKey: .done)
        try container.encode(toBacklog, forKey: .toBacklog)
        try container.encode(carriedTasks, forKey: .carriedTasks)
    }
}
