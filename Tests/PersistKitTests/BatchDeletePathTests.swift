import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// An entity no relationship reaches, alone in its model: a batch delete of it is one SQL
/// `DELETE` (the direct path).
private final class BDLoneItem: ManagedObject {
    override class var entityName: String { "Item" }
    @Attribute var name: String
    @Attribute var score = 0
    @Attribute var done = false
}

/// The same entity, reached by a to-one of another entity: its batch deletes take the general
/// path (select the keys, apply the delete rules, delete by key).
private final class BDLinkedItem: ManagedObject {
    override class var entityName: String { "Item" }
    @Attribute var name: String
    @Attribute var score = 0
    @Attribute var done = false
}

private final class BDHolder: ManagedObject {
    override class var entityName: String { "Holder" }
    @Attribute var label = ""
    @Relationship(inverse: .none) var item: BDLinkedItem?
}

/// A folder cascades to its notes through `Note.folder`; `Note.pinnedIn` refers to a folder
/// too, and is nullified.
private final class BDFolder: ManagedObject {
    override class var entityName: String { "Folder" }
    @Attribute var name: String
    @Relationship(deleteRule: .cascade) var notes: Set<BDNote>
}

private final class BDNote: ManagedObject {
    override class var entityName: String { "Note" }
    @Attribute var title: String
    @Relationship(inverse: \BDFolder.notes) var folder: BDFolder?
    @Relationship(inverse: .none) var pinnedIn: BDFolder?
}

/// The direct batch delete and the general one give the same result IDs, history record,
/// store contents and merges; cascades skip nothing they must nullify.
final class BatchDeletePathTests: XCTestCase {
    /// What one batch delete did, in terms both paths share (keys, not object IDs: the stores differ).
    private struct Outcome: Equatable {
        var resultKeys: [Int64]
        var historyDeleted: [Int64]
        var historyOther: Int
        var remaining: [String]
        var watcherDeletedRows: Int
        var watcherNames: [String]
        var heldDeleted: [Bool]
    }

    private typealias Row = (name: String, score: Int, done: Bool)

    private func outcome<T: ManagedObject>(_ type: T.Type, model: ManagedObjectModel, rows: [Row], directory: TemporaryDirectory,
                                           file: String, request: (ManagedObjectContext) throws -> BatchDeleteRequest<T>) throws -> Outcome {
        let container = try PersistentContainer(model: model, store: .sqlite(directory.file(file)))
        let context = container.newContext()
        try context.execute(BatchInsertRequest<T>(objects: rows.map { ["name": $0.name, "score": $0.score, "done": $0.done] }))
        let watching = container.newContext()
        let sorted = FetchRequest<T>(sortBy: [FetchSortDescriptor<T>(key: "name")])
        let controller = FetchedResultsController(fetchRequest: sorted, context: watching)
        try controller.performFetch()
        var deletedRows = 0
        let token = controller.observe { deletedRows += $0.deletedRows.count }
        defer { token.cancel() }
        let held = try watching.fetch(sorted)
        let start = try container.currentHistoryToken()
        let result = try context.execute(try request(context))
        watching.processPendingChanges()
        let transactions = try container.history(after: start)
        // A delete that matched nothing records no transaction (recordHistory writes nothing empty).
        XCTAssertEqual(transactions.count, result.objectIDs.isEmpty ? 0 : 1, "one history transaction, if anything was deleted")
        let changes = transactions.flatMap(\.changes)
        let names = { (objects: [T]) in objects.map { (try? $0.value(forKey: "name")) as? String ?? "?" } }
        return Outcome(resultKeys: result.objectIDs.map(\.key),
                       historyDeleted: changes.filter { $0.kind == .delete }.map(\.objectID.key).sorted(),
                       historyOther: changes.filter { $0.kind != .delete }.count,
                       remaining: names(try container.newContext().fetch(sorted)),
                       watcherDeletedRows: deletedRows, watcherNames: names(controller.fetchedObjects),
                       heldDeleted: held.map { $0.isDeleted || $0.managedObjectContext == nil })
    }

    private func models() throws -> (direct: ManagedObjectModel, general: ManagedObjectModel) {
        let direct = try ManagedObjectModel(entities: [BDLoneItem.self])
        let general = try ManagedObjectModel(entities: [BDLinkedItem.self, BDHolder.self])
        guard let lone = direct.entity(named: "Item"), let linked = general.entity(named: "Item") else {
            throw PersistError(.invalidRequest, "the test models lack Item")
        }
        XCTAssertTrue(BatchDeletion.isDirect(lone, model: direct))
        XCTAssertFalse(BatchDeletion.isDirect(linked, model: general), "a to-one reaches it")
        return (direct, general)
    }

    func testTheDirectAndGeneralPathsAgree() throws {
        var generator = SeededGenerator(seed: testSeed("testTheDirectAndGeneralPathsAgree"))
        let rounds = testSize("testTheDirectAndGeneralPathsAgree", full: 12, ci: 4)
        let (direct, general) = try models()
        for round in 0..<rounds {
            let count = Int.random(in: 0...60, using: &generator)
            let rows: [Row] = (0..<count).map { ("n\(1000 + $0)", Int.random(in: 0..<10, using: &generator), Bool.random(using: &generator)) }
            let limit = Int.random(in: 0...10, using: &generator)
            let picked = Set((0..<count).filter { _ in Bool.random(using: &generator) }.map { Int64($0 + 1) })
            let kind = round % 3   // 0: a predicate, 1: no predicate (every row), 2: object IDs
            func request<T: ManagedObject>(_ type: T.Type) -> (ManagedObjectContext) throws -> BatchDeleteRequest<T> {
                { context in
                    switch kind {
                    case 0:
                        let predicate = try FetchPredicate<T>(format: "score < %@ OR done == true", argumentArray: [limit])
                        return BatchDeleteRequest<T>(predicate: predicate)
                    case 1:
                        return BatchDeleteRequest<T>()
                    default:
                        let ids = try context.fetch(FetchRequest<T>()).map(\.objectID).filter { picked.contains($0.key) }
                        return BatchDeleteRequest<T>(objectIDs: ids)
                    }
                }
            }
            let directory = TemporaryDirectory()
            let fast = try outcome(BDLoneItem.self, model: direct, rows: rows, directory: directory, file: "direct.sqlite", request: request(BDLoneItem.self))
            let slow = try outcome(BDLinkedItem.self, model: general, rows: rows, directory: directory, file: "general.sqlite", request: request(BDLinkedItem.self))
            XCTAssertEqual(fast, slow, "round \(round) (kind \(kind), \(count) rows)")
            XCTAssertEqual(fast.resultKeys, fast.historyDeleted, "the result names the deleted rows, ascending")
            if kind == 1 { XCTAssertEqual(fast.resultKeys.count, count, "a delete without a predicate reports every row") }
        }
    }

    func testACascadeStillNullifiesOtherReferences() throws {
        let directory = TemporaryDirectory()
        let container = try PersistentContainer(model: ManagedObjectModel(entities: [BDFolder.self, BDNote.self]),
                                                store: .sqlite(directory.file("notes.sqlite")))
        let context = container.newContext()
        let doomed = BDFolder(context: context), kept = BDFolder(context: context)
        doomed.name = "doomed"
        kept.name = "kept"
        var notes: [BDNote] = []
        for index in 0..<6 {
            let note = BDNote(context: context)
            note.title = "n\(index)"
            note.folder = index < 3 ? doomed : kept
            note.pinnedIn = index % 2 == 0 ? doomed : kept
            notes.append(note)
        }
        try context.save()
        let start = try container.currentHistoryToken()
        let result = try context.execute(BatchDeleteRequest<BDFolder>(predicate: \.name == "doomed"))
        XCTAssertEqual(Set(result.objectIDs), Set([doomed.objectID] + notes[0..<3].map(\.objectID)))
        let reader = container.newContext()
        let fresh = try reader.fetch(FetchRequest<BDNote>(sortBy: [FetchSortDescriptor(\.title)]))
        XCTAssertEqual(fresh.map(\.title), ["n3", "n4", "n5"])
        XCTAssertEqual(fresh.map { $0.pinnedIn?.name }, ["kept", nil, "kept"], "n4 was pinned in the deleted folder")
        XCTAssertEqual(fresh.map { $0.folder?.name }, ["kept", "kept", "kept"])
        XCTAssertNil(notes[4].pinnedIn, "merged into the context")
        let changes = try container.history(after: start).flatMap(\.changes)
        XCTAssertEqual(changes.filter { $0.kind == .update }.map(\.objectID), [notes[4].objectID])
        XCTAssertEqual(changes.filter { $0.kind == .update }.map(\.changedKeys), [["pinnedIn"]])
        XCTAssertEqual(Set(changes.filter { $0.kind == .delete }.map(\.objectID)), Set(result.objectIDs))
    }
}
