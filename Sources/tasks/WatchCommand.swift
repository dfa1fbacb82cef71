import ArgumentParser
import Foundation
import PersistKit
import TaskModel

/// `tasks watch`: the list, then a line per change other processes make, until Ctrl-C.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print the list, then one line per change made to the store, until Ctrl-C.",
        discussion: """
            Lines read '+ #14 "Call mom" into Incomplete at 2' (added), '~ #3 moved to Complete 1' \
            (moved), '~ #5 "Buy milk" changed' (changed in place; 'planned for today', 'moved to the \
            backlog' for a plan change, 'attached receipt.jpg', 'detached receipt.jpg' for its files) and '- #9' (removed); positions count from 1 within their \
            section. A line '! #7 "Call mom" reminder (...)' says a task's reminder came due (on \
            start, for reminders already due and not shown before); '= Reviewed today, ...' that a \
            day was reviewed.
            """)

    @OptionGroup var list: ListOptions
    @OptionGroup var storeOptions: StoreOptions

    /// How often the store is asked whether another process committed.
    private static let interval: TimeInterval = 0.2
    /// Reminders are looked for every this many rounds (once a second).
    private static let reminderRounds = 5

    /// With `TASKS_TRACE_MERGES=1`, a line on standard error per change notice says how it was
    /// merged (for tests and for diagnosing a slow watch).
    private static var traceMerges: Bool { ProcessInfo.processInfo.environment["TASKS_TRACE_MERGES"] == "1" }

    func run() throws {
        let store = try storeOptions.open()
        let controller = store.resultsController(filter: list.filter, matching: list.search)
        try controller.performFetch()
        let style = Style.forStandardOutput()
        let sections = list.filter.sections.map { section in
            (section: section,
             tasks: controller.sections.first { TaskSection($0) == section }?.objects ?? [])
        }
        let renderer = ListRenderer(style: style, dates: DateText(), labels: try store.labels(of: sections.flatMap(\.tasks)))
        var lines = renderer.lines(for: sections) + [""]
        if Console.outputIsTerminal { lines.append(style.dim("Watching for changes; Ctrl-C to stop.")) }
        let reminders = ReminderReporter(store: store, dates: DateText())
        try Console.out(lines: lines + (try reminders.lines()))

        Interrupt.install()
        let reporter = WatchReporter(controller)
        let merge = try WatchMerge(store: store)
        // The controller's change sets are worded once the whole merge is in (a task's plan
        // change is told by the context's notice, which comes after the controller's).
        var changes: [ChangeSet] = []
        let token = controller.observe { change in changes.append(change) }
        defer { token.cancel() }
        let trace = WatchCommand.traceMerges ? store.context.addObserver { notice in
            Console.error("watch: " + (notice.invalidatedAll ? "refetched everything" : "merged \(notice.inserted.count) inserted, "
                          + "\(notice.updated.count) updated, \(notice.deleted.count) deleted"))
        } : nil
        defer { trace?.cancel() }
        // PersistKit's processPendingChanges() probes the store for other processes' commits
        // (PRAGMA data_version) and merges exactly what their history records say changed:
        // the controller places those rows without refetching the list.
        var round = 0
        while !Interrupt.wasRequested {
            store.context.processPendingChanges()
            var lines: [String] = []
            for change in changes { lines += reporter.lines(for: change, in: controller, edit: merge.edit) }
            changes = []
            lines += merge.lines(after: reporter, in: controller)
            try Console.out(lines: lines)
            try merge.endRound()
            reporter.endRound()
            round += 1
            if round % WatchCommand.reminderRounds == 0 { try Console.out(lines: try reminders.lines()) }
            Thread.sleep(forTimeInterval: WatchCommand.interval)
        }
    }
}
