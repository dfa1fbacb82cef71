/// How many open tasks of each priority a day's plan may hold: what keeps a day from being
/// overloaded. Kept in the store (``TaskStore/dayLimits()``, ``TaskStore/setDayLimits(_:)``);
/// 1 high, 3 normal and 5 low unless changed.
///
/// ```swift
/// var limits = try store.dayLimits()
/// limits[.high] = 2
/// try store.setDayLimits(limits)
/// ```
///
/// Only open tasks count: finishing a task makes room for another.
public struct DayLimits: Codable, Sendable, Hashable {
    /// Open high-priority tasks a day may hold.
    public var high: Int
    /// Open normal-priority tasks a day may hold.
    public var normal: Int
    /// Open low-priority tasks a day may hold.
    public var low: Int

    /// Limits with these values; by default 1, 3 and 5.
    public init(high: Int = 1, normal: Int = 3, low: Int = 5) {
        self.high = high
        self.normal = normal
        self.low = low
    }

    /// 1 high, 3 normal, 5 low.
    public static let defaults = DayLimits()

    /// The values a limit may take: 0 (no task of that priority) to 99.
    public static let allowed = 0...99

    /// The limit for a priority.
    public subscript(priority: TaskPriority) -> Int {
        get {
            switch priority {
            case .high: return high
            case .normal: return normal
            case .low: return low
            }
        }
        set {
            switch priority {
            case .high: high = newValue
            case .normal: normal = newValue
            case .low: low = newValue
            }
        }
    }
}
