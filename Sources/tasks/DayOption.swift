import ArgumentParser
import TaskModel

/// `--day DATE`, for the commands of the day plan (`today`, `plan`, `review`): today unless
/// given.
struct DayOption: ParsableArguments {
    @Option(help: ArgumentHelp("The day: 2026-11-25, today, tomorrow, +3d, friday (default: today).", valueName: "date"))
    var day: String?

    /// The day given, or today as `dates` see it.
    ///
    /// - Throws: a usage ``CommandError`` for text that names no day.
    func day(_ dates: DateText) throws -> CalendarDay {
        try day.map { try Arguments.day($0) } ?? dates.today
    }
}
