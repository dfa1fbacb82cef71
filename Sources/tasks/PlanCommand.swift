import ArgumentParser
import Foundation
import TaskModel

/// `tasks plan REF... [--day DATE]`: puts tasks on a day's plan, within its daily limits.
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Put tasks on a day's plan (today's unless --day), from the backlog or anywhere, within the daily limits.",
        discussion: """
            All the tasks, or none: a task that is done, a day reviewed already, or a plan that \
            would hold more open tasks of a priority than its limit (tasks limits) is refused with \
            one line saying which.
            """)

    @OptionGroup var references: TaskReferences
    @OptionGroup var day: DayOption
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let numbers = try references.numbers()
        let dates = DateText()
        let target = try day.day(dates)
        let name = dates.dayName(target)
        guard target >= dates.today else { throw CommandError.failure("cannot plan for \(name): it has passed") }
        let store = try storeOptions.open()
        let tasks = try TaskReferences.tasks(numbers, in: store)
        if let done = tasks.first(where: \.isComplete) {
            throw CommandError.failure("\(done.reference) \(TerminalText.quoted(done.name)) is done: there is nothing left to plan")
        }
        if try store.day(target)?.isReviewed == true {
            throw CommandError.failure("\(name) was reviewed already: plan for a day still to come (--day tomorrow)")
        }
        if let overflow = try store.overflow(planning: tasks, on: target) {
            throw CommandError.failure(overflow.message(dayName: name))
        }
        let before = try store.plan(tasks, on: target)
        try Console.out(lines: zip(tasks, before).map { task, place in
            let title = "\(task.reference) \(TerminalText.quoted(task.name))"
            switch place {
            case .day(let day) where day == target: return "\(title) is already planned for \(name)"
            case .day(let day): return "Planned \(title) for \(name) (from \(dates.dayName(day)))"
            case .backlog: return "Planned \(title) for \(name) (from the backlog)"
            case .none: return "Planned \(title) for \(name)"
            }
        })
    }
}
