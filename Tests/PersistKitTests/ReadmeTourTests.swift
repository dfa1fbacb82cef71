import XCTest
@testable import PersistKit

/// The README's tour, compiled and run (keep the two in step).
final class Note: ManagedObject {
    @Attribute var title: String
    @Attribute var body: String?
    @Attribute var isPinned = false
    @Attribute var created = Date()
}

final class ReadmeTourTests: XCTestCase {
    func testTour() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("notes.sqlite")

        let model = try ManagedObjectModel(entities: [Note.self])
        let container = try PersistentContainer(model: model, store: .sqlite(url))
        let context = container.newContext()

        let note = Note(context: context)
        note.title = "Buy milk"
        try context.save()

        let request = FetchRequest<Note>(
            predicate: \.isPinned == false && .contains(\.title, "MILK", options: .caseInsensitive),
            sortBy: [FetchSortDescriptor(\.created, order: .reverse)])
        let notes = try context.fetch(request)
        let same = try FetchPredicate<Note>(format: "isPinned == NO AND title CONTAINS[c] %@", "milk")

        let results = FetchedResultsController(fetchRequest: FetchRequest<Note>(sortBy: [FetchSortDescriptor(\.isPinned), FetchSortDescriptor(\.title)]),
                                               context: context, sectionNameKeyPath: \.isPinned)
        try results.performFetch()
        var received: [ChangeSet] = []
        let token = results.observe { change in received.append(change) }
        note.isPinned = true
        context.processPendingChanges()

        XCTAssertEqual(notes.map(\.title), ["Buy milk"])
        XCTAssertEqual(try context.fetch(FetchRequest<Note>(predicate: same)).count, 0, "pinned now")
        XCTAssertEqual(received.count, 1)
        XCTAssertEqual(results.sections.map(\.name), ["true"])
        token.cancel()
    }
}
