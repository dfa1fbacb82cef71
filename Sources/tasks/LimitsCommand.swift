import ArgumentParser
import Foundation
import TaskModel

/// `tasks limits [--high N] [--normal N] [--low N]`: shows or sets how many open tasks of each
/// priority a day's plan may hold.
struct LimitsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "limits",
        abstract: "Show or set how many open tasks of each priority a day's plan may hold (1 high, 3 normal, 5 low at first).",
        discussion: "A limit is from 0 to 99. Only open tasks count: finishing one makes room for another.")

    @Option(help: ArgumentHelp("The limit of high-priority tasks.", valueName: "n"))
    var high: String?
    @Option(help: ArgumentHelp("The limit of normal-priority tasks.", valueName: "n"))
    var normal: String?
    @Option(help: ArgumentHelp("The limit of low-priority tasks.", valueName: "n"))
    var low: String?
    @Flag(name: .long, help: "Print JSON: {\"high\", \"normal\", \"low\"}.")
    var json = false
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let changes = try [(TaskPriority.high, high), (.normal, normal), (.low, low)].compactMap { priority, text in
            try text.map { (priority, try LimitsCommand.limit($0)) }
        }
        let store = try storeOptions.open()
        var limits = try store.dayLimits()
        if !changes.isEmpty {
            for (priority, value) in changes { limits[priority] = value }
            try store.setDayLimits(limits)
        }
        if json {
            try Console.out(TaskJSONText.string(of: limits))
            return
        }
        let priorities = TaskPriority.allCases.reversed()
        if !changes.isEmpty {
            try Console.out("Set the daily limits: " + priorities.map { "\($0.name) \(limits[$0])" }.joined(separator: ", "))
            return
        }
        let width = priorities.map(\.name.count).max() ?? 0
        let numbers = priorities.map { NumberText.grouped(limits[$0]) }
        let numberWidth = numbers.map(\.count).max() ?? 0
        try Console.out(lines: ["A day's plan holds at most (open tasks):"] + zip(priorities, numbers).map { priority, number in
            "  " + priority.name + String(repeating: " ", count: width - priority.name.count) + "  "
                + String(repeating: " ", count: numberWidth - number.count) + number
        })
    }

    /// A limit as typed: 0 to 99.
    ///
    /// - Throws: a usage ``CommandError``.
    static func limit(_ text: String) throws -> Int {
        let range = DayLimits.allowed
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
            throw CommandError.usage("'\(text)' is not a limit (try a number from \(range.lowerBound) to \(range.upperBound))")
        }
        return value
    }
}
