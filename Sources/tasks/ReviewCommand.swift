import ArgumentParser
import Foundation
import TaskModel

/// `tasks review [--day DATE] [--carry]`: ends a day: what was done and what was not; the
/// rest to the backlog, or to the next day within its limits; the day's figures recorded, once.
struct ReviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "End a day (today unless --day): show what was done and what was not, move the rest to the backlog "
            + "(or the next day, with --carry), and record the day's figures.",
        discussion: """
            A day is reviewed once: reviewing it again shows what was recorded and changes \
            nothing. With --carry, the tasks not done go to the next day's plan as far as its \
            limits allow, the others to the backlog.
            """)

    @OptionGroup var day: DayOption
    @Flag(name: .long, help: "Carry what was not done to the next day's plan, within its limits.")
    var carry = false
    @Flag(name: .long, help: "Print JSON (see the README for its shape).")
    var json = false
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let dates = DateText()
        let target = try day.day(dates)
        guard target <= dates.today else {
            throw CommandError.failure("\(dates.dayName(target)) has not come yet: a day is reviewed once it has begun")
        }
        let store = try storeOptions.open()
        let result = try store.review(target, carry: carry, calendar: dates.calendar)
        if json {
            try Console.out(TaskJSONText.string(of: ReviewJSON(result)))
            return
        }
        try Console.out(lines: ReviewRenderer(style: .forStandardOutput(), dates: dates, labels: try store.labels(of: result.done
            + result.carried + result.backlogged)).lines(for: result))
    }
}
