import ArgumentParser
import TaskModel

/// Which tasks a list shows: `--incomplete` / `--completed` (or `--all`), and `--search`.
struct ListOptions: ParsableArguments {
    /// The segmented control of the seed app, as three exclusive flags.
    enum Show: String, EnumerableFlag {
        case all, incomplete, completed

        static func help(for value: Show) -> ArgumentHelp? {
            switch value {
            case .all: return "Show every task (the default)."
            case .incomplete: return "Show only tasks still to do."
            case .completed: return "Show only tasks that are done."
            }
        }
    }

    @Flag var show: Show = .all

    @Option(name: .long, help: ArgumentHelp("Show only tasks whose name or notes contain TEXT (ignoring case and accents).",
                                            valueName: "text"))
    var search: String?

    var filter: TaskFilter {
        switch show {
        case .all: return .all
        case .incomplete: return .incomplete
        case .completed: return .completed
        }
    }
}
