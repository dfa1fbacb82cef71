import PersistKit

/// The two sections of a task list, keyed by whether their tasks are done: what is still to
/// do (`false`), then what is done (`true`).
///
/// A results controller sectioned by `\.isComplete` holds one section per value;
/// ``init(_:)`` tells which from its tasks' `isComplete`, never from the section's name.
///
/// ```swift
/// for section in controller.sections {
///     let title = TaskSection(section)?.title ?? section.name
/// }
/// let grouped = Dictionary(grouping: tasks) { TaskSection(isComplete: $0.isComplete) }
/// ```
public enum TaskSection: RawRepresentable, Sendable, Hashable, CaseIterable {
    /// Tasks still to do.
    case incomplete
    /// Tasks that are done.
    case complete

    /// The section of tasks with this completion state.
    public init(isComplete: Bool) {
        self = isComplete ? .complete : .incomplete
    }

    /// The section keyed by `rawValue`, the tasks' `isComplete`: every `Bool` names one.
    public init(rawValue: Bool) {
        self.init(isComplete: rawValue)
    }

    /// The section of a results controller's section (one sectioned by `\.isComplete`), from
    /// its first task's `isComplete`; nil for a section without tasks. Ask between changes (as
    /// TaskStore's saving methods leave things), not while an unsaved change to that task waits.
    public init?(_ section: ResultsSection<TaskItem>) {
        // Every task of such a section has the same key: the first one answers in O(1).
        guard let isComplete = section.objects.first?.isComplete else { return nil }
        self.init(isComplete: isComplete)
    }

    /// The key: whether the section holds complete tasks.
    public var rawValue: Bool { isComplete }

    /// The title people see: "Incomplete" or "Complete".
    public var title: String {
        switch self {
        case .incomplete: return "Incomplete"
        case .complete: return "Complete"
        }
    }

    /// Whether the section holds complete tasks.
    public var isComplete: Bool {
        // A switch, not `self == .complete`: RawRepresentable's == reads rawValue, which is this.
        switch self {
        case .incomplete: return false
        case .complete: return true
        }
    }
}
