import PersistKit

/// The two sections of a task list: what is still to do, then what is done.
///
/// A results controller sectioned by `\.isComplete` names its sections "false" and "true";
/// ``init(resultsSectionName:)`` turns those into these.
///
/// ```swift
/// for section in controller.sections {
///     let title = TaskSection(resultsSectionName: section.name)?.title ?? section.name
/// }
/// ```
public enum TaskSection: String, Sendable, Hashable, CaseIterable {
    /// Tasks still to do.
    case incomplete
    /// Tasks that are done.
    case complete

    /// The section of tasks with this completion state.
    public init(isComplete: Bool) {
        self = isComplete ? .complete : .incomplete
    }

    /// The section a results controller's section name (`"false"` or `"true"`) stands for;
    /// nil for any other name.
    public init?(resultsSectionName name: String) {
        switch name {
        case "false": self = .incomplete
        case "true": self = .complete
        default: return nil
        }
    }

    /// The section of a results controller's section, nil when it is not a task section.
    public init?(_ section: ResultsSection<TaskItem>) {
        self.init(resultsSectionName: section.name)
    }

    /// The title people see: "Incomplete" or "Complete".
    public var title: String {
        switch self {
        case .incomplete: return "Incomplete"
        case .complete: return "Complete"
        }
    }

    /// Whether the section holds complete tasks.
    public var isComplete: Bool { self == .complete }
}
