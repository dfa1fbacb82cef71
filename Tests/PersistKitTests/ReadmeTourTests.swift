import Foundation
import PersistKit
import PersistKitTestSupport
import XCTest

// The README's tour, compiled and run as a user's file would be: Foundation and PersistKit
// imported side by side, no `@testable`, no module qualification.
final class Note: ManagedObject {
    @Attribute var title: String               // required: a save fails until it is set
    @Attribute var body: String?               // optional
    @Attribute var isPinned = false            // default false
    @Attribute var created = Date.distantPast
    @Relationship(inverse: \Folder.notes) var folder: Folder?   // to-one; its inverse is a to-many
    override func awakeFromInsert() { created = Date() }   // each new note's own moment
}

final class Folder: ManagedObject {
    @Attribute(.unique) var name: String
    @Relationship(deleteRule: .cascade) var notes: Set<Note>    // deleting a folder deletes its notes
}

final class ReadmeTourTests: XCTestCase {
    func testTour() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("notes.sqlite")

        let model = try ManagedObjectModel(entities: [Note.self, Folder.self])
        let container = try PersistentContainer(model: model, store: .sqlite(url))   // or .inMemory
        let context = container.newContext()

        let note = Note(context: context)              // inserted, temporary ObjectID
        note.title = "Buy milk"
        let inbox = Folder(context: context)
        inbox.name = "Inbox"
        note.folder = inbox                            // inbox.notes holds note now, before any save
        XCTAssertEqual(inbox.notes, [note])
        try context.save()                             // one transaction; the ObjectIDs are now permanent

        let request = FetchRequest<Note>(
            predicate: \.isPinned == false && .contains(\.title, "MILK", options: .caseInsensitive),
            sortBy: [FetchSortDescriptor(\.created, order: .reverse)])
        let notes = try context.fetch(request)         // sees unsaved changes too
        let same = try FetchPredicate<Note>(format: "isPinned == NO AND title CONTAINS[c] %@", "milk")
        let swiftData = FetchRequest(predicate: #Predicate<Note> { !$0.isPinned && $0.title.contains("milk") },
                                     sortBy: [SortDescriptor(\.created)])   // Foundation's, translated

        XCTAssertEqual(try context.fetch(swiftData).map(\.title), ["Buy milk"], "#Predicate, before the change")
        XCTAssertEqual(try context.fetch(swiftData).map(\.objectID), try context.fetch(FetchRequest<Note>(predicate: same)).map(\.objectID))

        let results = FetchedResultsController(
            fetchRequest: FetchRequest<Note>(sortBy: [FetchSortDescriptor(\.isPinned), FetchSortDescriptor(\.title)]),
            context: context, sectionNameKeyPath: \.isPinned)
        try results.performFetch()
        var received: [ChangeSet] = []
        let token = results.observe { change in
            // change.deletedRows (old paths), insertedRows (new paths), movedRows, updatedRows
            received.append(change)
        }
        note.isPinned = true
        context.processPendingChanges()                // save and fetch run it too: one ChangeSet

        XCTAssertEqual(notes.map(\.title), ["Buy milk"])
        XCTAssertEqual(try context.fetch(FetchRequest<Note>(predicate: same)).count, 0, "pinned now")
        XCTAssertEqual(try context.fetch(swiftData).count, 0, "pinned now, #Predicate too")
        XCTAssertEqual(received.count, 1)
        XCTAssertEqual(results.sections.map(\.name), ["true"])
        token.cancel()
    }
}
