import Foundation
import PersistKit
import PersistKitTestSupport
import TaskModel
import XCTest

/// A store written with model version 1 (``TaskModelV1``), as `tasks` 0.1 wrote them: tasks
/// whose dues are local midnights (in several time zones, as people travel) or any instant
/// (imports), some with hashtags; and the store's record.
struct Version1Store {
    /// Every value of a version 1 task.
    struct Row: Equatable {
        let name: String
        let notes: String?
        let due: Date?
        let isComplete: Bool
        let createdAt: Date
    }

    /// The tasks written, by reference number.
    private(set) var rows: [Int64: Row] = [:]

    private static let words = ["Buy", "milk", "Call", "mom", "Fix", "the", "gate", "Pay", "rent", "Read", "a", "book", "Plan",
                                "trip", "Water", "plants", "Café", "牛乳", "🎉", "Zoë"]
    private static let hashtags = ["#errands", "#Errands", "#home", "#work", "#phone", "#café", "C#", "#12", "#follow-up"]
    private static let zones = ["UTC", "Europe/Paris", "America/New_York", "Asia/Tokyo", "Pacific/Kiritimati", "Pacific/Pago_Pago"]

    /// Writes `count` generated tasks (and the store record) to a new store at `url`.
    init(url: URL, count: Int, seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let container = try PersistentContainer(model: try TaskModelV1.makeModel(), store: .sqlite(url))
        let context = container.newContext()
        let info = TaskModelV1.StoreInfo(context: context)
        info.sampleDataStaged = true
        var written: [(TaskModelV1.TaskItem, Row)] = []
        for _ in 0..<count {
            let row = Version1Store.row(&random)
            let task = TaskModelV1.TaskItem(context: context)
            task.name = row.name
            task.notes = row.notes
            task.due = row.due
            task.isComplete = row.isComplete
            task.createdAt = row.createdAt
            written.append((task, row))
        }
        try context.save()
        for (task, row) in written {
            rows[try XCTUnwrap(task.objectID.primaryKey)] = row
        }
    }

    private static func row(_ random: inout SeededGenerator) -> Row {
        var name = (0..<Int.random(in: 1...4, using: &random)).map { _ in words.randomElement(using: &random) ?? "x" }
        if Int.random(in: 0..<3, using: &random) == 0 { name.insert(hashtags.randomElement(using: &random) ?? "", at: name.count / 2) }
        var notes: String?
        switch Int.random(in: 0..<4, using: &random) {
        case 0: notes = "line one\nline two " + (hashtags.randomElement(using: &random) ?? "")
        case 1: notes = words.shuffled(using: &random).joined(separator: " ")
        default: notes = nil
        }
        let createdMilliseconds = Int64.random(in: 1_600_000_000_000...1_800_000_000_000, using: &random)
        return Row(name: name.joined(separator: " "), notes: notes, due: due(&random),
                   isComplete: Bool.random(using: &random), createdAt: Date(timeIntervalSince1970: Double(createdMilliseconds) / 1000))
    }

    private static func due(_ random: inout SeededGenerator) -> Date? {
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            return nil
        case 1:
            // Any instant, to the millisecond (imported tasks).
            return Date(timeIntervalSince1970: Double(Int64.random(in: 1_700_000_000_000...1_900_000_000_000, using: &random)) / 1000)
        default:
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: zones.randomElement(using: &random) ?? "UTC") ?? calendar.timeZone
            let day = DateComponents(year: Int.random(in: 2020...2030, using: &random), month: Int.random(in: 1...12, using: &random),
                                     day: Int.random(in: 1...28, using: &random))
            return calendar.date(from: day).map { calendar.startOfDay(for: $0) }
        }
    }
}
