import Foundation
import XCTest
@testable import PersistKit

/// Watches a results controller of any entity: records each change set and the notices of its
/// context, replays every change set on a mirror of the sections (object IDs, checked with
/// UITableView's rules), and compares the controller with a fresh fetch.
final class ResultsWatcher<T: ManagedObject> {
    let controller: FetchedResultsController<T>
    private(set) var changes: [ChangeSet] = []
    private(set) var mirror: [[ObjectID]] = []
    private(set) var problems: [String] = []
    /// How many notices of the context said "anything may have changed" (not an exact merge).
    private(set) var invalidations = 0
    private var tokens: [ObservationToken] = []

    init(_ controller: FetchedResultsController<T>) throws {
        self.controller = controller
        try controller.performFetch()
        mirror = Self.sections(of: controller)
        tokens.append(controller.observe { [weak self] change in self?.record(change) })
        tokens.append(controller.context.addObserver { [weak self] notice in
            if notice.invalidatedAll { self?.invalidations += 1 }
        })
    }

    private func record(_ change: ChangeSet) {
        changes.append(change)
        do {
            try change.validate(oldSectionCounts: mirror.map(\.count), newSectionCounts: controller.sections.map(\.numberOfObjects))
            mirror = try change.applied(to: mirror) { path, old in
                old ?? controller.objectID(at: path) ?? ObjectID(entityName: "?", storeIdentifier: "?", key: 0, isTemporary: true)
            }
        } catch {
            problems.append("\(error)\n\(change)")
            mirror = Self.sections(of: controller)
        }
        if change.isEmpty { problems.append("an empty change set was delivered") }
        if let inconsistency = controller.core.inconsistency() { problems.append("rows: " + inconsistency) }
    }

    /// The controller's sections as object IDs (read without making objects).
    static func sections(of controller: FetchedResultsController<T>) -> [[ObjectID]] {
        controller.sections.enumerated().map { section, content in
            (0..<content.numberOfObjects).compactMap { controller.objectID(at: IndexPath(item: $0, section: section)) }
        }
    }

    var current: [[ObjectID]] { Self.sections(of: controller) }

    /// Forgets the change sets seen so far.
    func reset() {
        changes = []
        invalidations = 0
    }

    /// The object IDs of the rows a change set inserted and deleted, read from the new and old sections.
    func insertedAndDeleted(_ change: ChangeSet, old: [[ObjectID]]) -> (inserted: Set<ObjectID>, deleted: Set<ObjectID>) {
        let new = current
        return (Set(change.insertedRows.map { new[$0[0]][$0[1]] }), Set(change.deletedRows.map { old[$0[0]][$0[1]] }))
    }

    /// Checks that the rows equal a fresh fetch of `request` in `context` grouped by `section`,
    /// and that the replayed change sets agree.
    func check(against context: ManagedObjectContext, _ request: FetchRequest<T>, section: ((T) -> String)?,
               _ message: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let fresh = try context.fetch(request)
        var expected: [[ObjectID]] = []
        var previous: String?
        for object in fresh {
            let name = section?(object) ?? ""
            if expected.isEmpty || name != previous { expected.append([]) }
            expected[expected.count - 1].append(object.objectID)
            previous = name
        }
        if section == nil && expected.isEmpty { expected = [[]] }
        XCTAssertEqual(current, expected, "rows differ from a fresh fetch: " + message, file: file, line: line)
        XCTAssertEqual(mirror, expected, "replayed change sets differ from a fresh fetch: " + message, file: file, line: line)
        XCTAssertEqual(problems, [], message, file: file, line: line)
    }
}
