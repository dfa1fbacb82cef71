import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Misuse of relationships is a clear error, never a crash; the graph and the store are as
/// they were.
final class RelationshipMisuseTests: XCTestCase {
    func testAnObjectOfAnotherContextIsRefused() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        let context = container.newContext(), other = container.newContext()
        let task = GTask(context: context)
        task.title = "t"
        let stranger = GProject(context: other)
        stranger.name = "elsewhere"
        task.project = stranger
        XCTAssertNil(task.project, "the graph is unchanged")
        XCTAssertEqual(stranger.tasks, [])
        expectError(try context.save(), .validation) { error in
            XCTAssertEqual(error.attribute, "project")
            XCTAssertTrue(error.message.contains("another context"), error.message)
        }
        XCTAssertEqual(try makeGraphContainer(directory).newContext().count(for: FetchRequest<GTask>()), 0)
        let mine = GProject(context: context)
        mine.name = "here"
        task.project = mine
        try context.save()
        XCTAssertTrue(task.project === mine)
    }

    func testADeletedObjectIsRefused() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        let project = GProject(context: context)
        project.name = "p"
        try context.save()
        context.delete(project)
        let task = GTask(context: context)
        task.title = "t"
        task.project = project
        XCTAssertNil(task.project)
        expectError(try context.save(), .validation) { error in
            XCTAssertTrue(error.message.contains("deleted"), error.message)
        }
        context.rollback()
        XCTAssertFalse(project.isDeleted)
        XCTAssertEqual(try context.count(for: FetchRequest<GTask>()), 0)
    }

    func testAnObjectInNoContextIsRefused() throws {
        let directory = TemporaryDirectory()
        let model = try ManagedObjectModel(entities: graphEntities)
        let context = try PersistentContainer(model: model, store: .inMemory).newContext()
        let task = GTask(context: context)
        task.title = "t"
        let loose = GProject(entity: try XCTUnwrap(model.entity(named: "GProject")), insertInto: nil)
        task.project = loose
        XCTAssertNil(task.project)
        expectError(try context.save(), .validation)
        _ = directory
    }

    func testTheKeyValueFormNamesWhatIsWrong() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        let task = GTask(context: context)
        task.title = "t"
        let tag = GTag(context: context)
        tag.label = "x"
        expectError(try task.setRelatedObjects([tag], forKey: "project"), .invalidRequest) { error in
            XCTAssertTrue(error.message.contains("GProject"), error.message)
        }
        expectError(try task.setRelatedObjects([], forKey: "nothing"), .unknownKey)
        expectError(try task.relatedObjects(forKey: "nothing"), .unknownKey)
        let a = GProject(context: context), b = GProject(context: context)
        expectError(try task.setRelatedObjects([a, b], forKey: "project"), .invalidRequest)
    }
}
