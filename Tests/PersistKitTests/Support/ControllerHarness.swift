import Foundation
import XCTest
@testable import PersistKit

/// Watches a results controller: records every change set, and replays each one at once on a
/// mirror of the sections (object IDs), checking UITableView validity.
final class ControllerHarness {
    let controller: FetchedResultsController<TestTask>
    private(set) var changes: [ChangeSet] = []
    private(set) var mirror: [[ObjectID]] = []
    private(set) var problems: [String] = []
    private var token: ObservationToken?

    init(_ controller: FetchedResultsController<TestTask>) throws {
        self.controller = controller
        try controller.performFetch()
        mirror = controller.sections.map { $0.objects.map(\.objectID) }
        token = controller.observe { [weak self] change in self?.record(change) }
    }

    private func record(_ change: ChangeSet) {
        changes.append(change)
        let oldCounts = mirror.map(\.count)
        let newCounts = controller.sections.map(\.numberOfObjects)
        do {
            try change.validate(oldSectionCounts: oldCounts, newSectionCounts: newCounts)
            mirror = try change.applied(to: mirror) { path, _ in
                self.controller.object(at: path)?.objectID ?? ControllerHarness.missing
            }
        } catch {
            problems.append("\(error)\n\(change)")
            mirror = controller.sections.map { $0.objects.map(\.objectID) }
        }
        if change.isEmpty { problems.append("an empty change set was delivered") }
        for move in change.movedRows where move.from == move.to && oldCounts == newCounts {
            problems.append("move to itself: \(move)")
        }
    }

    static let missing = ObjectID(entityName: "missing", storeIdentifier: "missing", key: -1, isTemporary: true)

    func reset() { changes = [] }

    var last: ChangeSet? { changes.last }
}

func tasksRequest(predicate: PersistKit.Predicate<TestTask>? = nil, limit: Int = 0) -> FetchRequest<TestTask> {
    var request = FetchRequest<TestTask>(predicate: predicate,
                                         sortBy: [SortDescriptor(\.isComplete), SortDescriptor(\.due, nils: .last)])
    request.fetchLimit = limit
    return request
}

func day(_ n: Int) -> Date { Date(timeIntervalSince1970: 1_800_000_000 + Double(n) * 86_400) }
