/// A daily limit that planning tasks would pass (``TaskStore/overflow(planning:on:)``): the
/// day, the priority, its limit, the open tasks of that priority the day holds already and
/// those the plan would add, by reference number.
public struct PlanOverflow: Sendable, Hashable {
    /// The day planned for.
    public var day: CalendarDay
    /// The priority whose limit would be passed.
    public var priority: TaskPriority
    /// Its limit (``DayLimits``).
    public var limit: Int
    /// The open tasks of that priority on the day's plan already.
    public var holding: [Int64]
    /// The tasks of that priority the plan would add.
    public var adding: [Int64]

    /// An overflow with these values.
    public init(day: CalendarDay, priority: TaskPriority, limit: Int, holding: [Int64], adding: [Int64]) {
        self.day = day
        self.priority = priority
        self.limit = limit
        self.holding = holding
        self.adding = adding
    }

    /// The overflow as one sentence, the day named as `dayName` ("today", "Mon, 23 Nov"):
    ///
    /// - `today already holds 1 of 1 high-priority tasks: finish or unplan #4 first`
    /// - `today holds 1 of 3 normal-priority tasks: room for 2 more, not 3 (#5, #6 and #7)`
    /// - `a day holds no high-priority tasks (its limit is 0)`
    public func message(dayName: String) -> String {
        let kind = "\(priority.name)-priority task"
        guard limit > 0 else { return "a day holds no \(kind)s (its limit is 0)" }
        if holding.count >= limit {
            let which = holding.count == 1 ? PlanOverflow.list(holding) : "one of " + PlanOverflow.list(holding)
            return "\(dayName) already holds \(holding.count) of \(limit) \(kind)s: finish or unplan \(which) first"
        }
        let room = limit - holding.count
        return "\(dayName) holds \(holding.count) of \(limit) \(kind)s: room for \(room) more, "
            + "not \(adding.count) (\(PlanOverflow.list(adding)))"
    }

    /// `#4`, `#4 and #5`, `#4, #5 and #6`.
    static func list(_ references: [Int64]) -> String {
        let names = references.map { "#\($0)" }
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
    }
}
