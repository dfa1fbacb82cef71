/// How many of a project's planned tasks were done: one project's part of a day's review
/// (``DayStats/projects``), or of the days `tasks stats` covers (``TaskStats/completionByProject``).
///
/// ```swift
/// ProjectCompletion(project: "Home", planned: 4, completed: 3).rate   // 0.75
/// ```
public struct ProjectCompletion: Codable, Sendable, Hashable {
    /// The project's name; nil for tasks in no project.
    public var project: String?
    /// The planned tasks.
    public var planned: Int
    /// Those done.
    public var completed: Int

    /// A project's counts.
    public init(project: String?, planned: Int, completed: Int) {
        self.project = project
        self.planned = planned
        self.completed = completed
    }

    private enum CodingKeys: String, CodingKey { case project, planned, completed }

    /// Reads the counts; a missing `project` is nil.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        project = try container.decodeIfPresent(String.self, forKey: .project)
        planned = try container.decode(Int.self, forKey: .planned)
        completed = try container.decode(Int.self, forKey: .completed)
    }

    /// Writes every key, `null` for no project.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(project, forKey: .project)
        try container.encode(planned, forKey: .planned)
        try container.encode(completed, forKey: .completed)
    }

    /// `completed / planned`, 0 when nothing was planned.
    public var rate: Double { planned == 0 ? 0 : Double(completed) / Double(planned) }

    /// By name, ignoring case, tasks in no project last: the order every list of these has.
    static func sorted(_ counts: [String?: (planned: Int, completed: Int)]) -> [ProjectCompletion] {
        counts.map { ProjectCompletion(project: $0.key, planned: $0.value.planned, completed: $0.value.completed) }
            .sorted { left, right in
                switch (left.project, right.project) {
                case (nil, _): return false
                case (_, nil): return true
                case let (left?, right?): return (left.lowercased(), left) < (right.lowercased(), right)
                }
            }
    }
}
