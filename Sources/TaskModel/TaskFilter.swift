/// Which tasks a list shows: the seed app's segmented control.
public enum TaskFilter: String, Sendable, Hashable, CaseIterable {
    /// Every task: the incomplete ones, then the complete ones.
    case all
    /// Only tasks still to do.
    case incomplete
    /// Only tasks that are done.
    case completed

    /// The sections this filter can show, in order.
    public var sections: [TaskSection] {
        switch self {
        case .all: return [.incomplete, .complete]
        case .incomplete: return [.incomplete]
        case .completed: return [.complete]
        }
    }
}
