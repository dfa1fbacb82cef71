import Foundation
import XCTest
@testable import PersistKit

/// Watches a results controller: records every change set, and replays each one at once on a
/// mirror of the sections (object IDs), checking UITableView validity.
final class ResultsHarness<Result: ManagedObject> {
    let controller: FetchedResultsController<Result>
    private(set) var changes: [ChangeSet] = []
    private(set) var mirror: [[ObjectIdentifier]] = []
    private(set) var problems: [String] = []
    private var token: ObservationToken?

    init(_ controller: FetchedResultsController<Result>) throws {
        self.controller = controller
        try controller.performFetch()
        mirror = controller.sections.map { $0.objects.map(ObjectIdentifier.init) }
        token = controller.observe { [weak self] change in self?.record(change) }
    }

    private func record(_ change: ChangeSet) {
        changes.append(change)
        let oldCounts = mirror.map(\.count)
        let newCounts = controller.sections.map(\.numberOfObjects)
        do {
            try change.validate(oldSectionCounts: oldCounts, newSectionCounts: newCounts)
            mirror = try change.applied(to: mirror) { path, _ in
                self.controller.object(at: path).map(ObjectIdentifier.init) ?? ResultsHarnessMarker.missing
            }
        } catch {
            problems.append("\(error)\n\(change)")
            mirror = controller.sections.map { $0.objects.map(ObjectIdentifier.init) }
        }
        if change.isEmpty { problems.append("an empty change set was delivered") }
        if controller.sectionNameKey == nil, !change.deletedSections.isEmpty || !change.insertedSections.isEmpty {
            problems.append("an unsectioned controller reported a section change: \(change)")
        }
        if controller.sectionNameKey == nil, controller.sections.count != 1 {
            problems.append("an unsectioned controller has \(controller.sections.count) sections")
        }
        if let inconsistency = controller.core.inconsistency() { problems.append("rows: " + inconsistency) }
        if change.movedRows.count == 1, let move = change.movedRows.first, move.from == move.to,
           change.insertedRows.isEmpty, change.deletedRows.isEmpty {
            problems.append("move to itself: \(move)")
        }
    }


    func reset() { changes = [] }

    var last: ChangeSet? { changes.last }

    /// The controller's current sections, as the mirror holds them.
    var current: [[ObjectIdentifier]] { controller.sections.map { $0.objects.map(ObjectIdentifier.init) } }
}

/// The harness over `TestTask` controllers most tests use.
typealias ControllerHarness = ResultsHarness<TestTask>

/// Stands for a row the replay could not name.
enum ResultsHarnessMarker {
    static let missing = ObjectIdentifier(ResultsHarnessMarker.self)
}

func tasksRequest(predicate: FetchPredicate<TestTask>? = nil, limit: Int = 0) -> FetchRequest<TestTask> {
    var request = FetchRequest<TestTask>(predicate: predicate,
                                         sortBy: [FetchSortDescriptor(\.isComplete), FetchSortDescriptor(\.due, nils: .last)])
    request.fetchLimit = limit
    return request
}

func day(_ n: Int) -> Date { Date(timeIntervalSince1970: 1_800_000_000 + Double(n) * 86_400) }
