import Foundation
import Observation
import PersistKit
import PersistKitTestSupport
import XCTest

/// The article's "Observing objects" example, run.
final class ObservingObjectsArticleTests: XCTestCase {
    func testObservingObjects() throws {
        typealias TaskItem = ObservingResultsArticle.TaskItem
        let directory = TemporaryDirectory()
        let model = try ManagedObjectModel(entities: [TaskItem.self, ObservingResultsArticle.Project.self])
        let container = try PersistentContainer(model: model, store: .sqlite(directory.file("tasks.sqlite")))
        let setup = container.newContext()
        TaskItem(context: setup).name = "Buy milk"
        try setup.save()
        let context = container.newContext()
        let fires = ObservationFires()
        // The article's `print`, counted: "changed" is what onChange prints.
        @Sendable func print(_ items: Any...) {
            if items.first as? String == "changed" { fires.record() }
        }
        context.isObservable = true
        let task = try context.fetch(FetchRequest<TaskItem>()).first!
        withObservationTracking {
            print(task.name, task.project?.name ?? "no project")
        } onChange: {
            print("changed")                 // once, on the thread that made the change
        }
        task.isComplete = true               // not read above: nothing
        XCTAssertEqual(fires.count, 0)
        task.name = "Buy oat milk"           // prints "changed"
        XCTAssertEqual(fires.count, 1)
    }
}
