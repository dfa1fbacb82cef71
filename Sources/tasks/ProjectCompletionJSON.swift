import TaskModel

/// A project's planned and done tasks in JSON: `{"project": "Home", "planned": 4,
/// "completed": 3}`, `project` null for tasks in no project (written, never left out).
struct ProjectCompletionJSON: Encodable {
    let project: String?
    let planned: Int
    let completed: Int

    init(_ completion: ProjectCompletion) {
        project = completion.project
        planned = completion.planned
        completed = completion.completed
    }

    private enum CodingKeys: String, CodingKey { case project, planned, completed }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(project, forKey: .project)
        try container.encode(planned, forKey: .planned)
        try container.encode(completed, forKey: .completed)
    }
}
