import PersistKit

/// How much a task matters: low, normal (every task's unless set) or high.
///
/// Stored as its raw value (0, 1, 2), so that sorting by priority in the store orders them.
///
/// ```swift
/// TaskPriority(name: "high")   // .high
/// TaskPriority.low.name        // "low"
/// ```
public enum TaskPriority: Int, AttributeValue, Sendable, CaseIterable, Comparable {
    /// Can wait.
    case low = 0
    /// The default.
    case normal = 1
    /// Comes first.
    case high = 2

    /// The priority named `name` ("low", "normal", "high", in any case); nil for another word.
    public init?(name: String) {
        guard let match = TaskPriority.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = match
    }

    /// "low", "normal" or "high": how `tasks` and exports write it.
    public var name: String {
        switch self {
        case .low: return "low"
        case .normal: return "normal"
        case .high: return "high"
        }
    }

    /// Lower priorities first.
    public static func < (lhs: TaskPriority, rhs: TaskPriority) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
