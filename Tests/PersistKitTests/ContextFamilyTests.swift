import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// The context family on its own: children are held weakly, baselines are kept per object and
/// their references to a parent's saved inserts become keys.
final class ContextFamilyTests: XCTestCase {
    func testChildrenAreHeldWeakly() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory, inMemory: true)
        let parent = container.newContext()
        var family = ContextFamily()
        XCTAssertNil(family.parent)
        XCTAssertFalse(family.hasChildren)
        do {
            let child = container.newContext()
            family.addChild(child)
            XCTAssertTrue(family.liveChildren.first === child)
        }
        XCTAssertTrue(family.hasChildren, "a child was made: the save asks its children")
        XCTAssertTrue(family.liveChildren.isEmpty, "a dropped child is gone")
        family.setParent(parent)
        XCTAssertTrue(family.parent === parent)
    }

    func testBaselinesTakePermanentKeys() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory, inMemory: true)
        let context = container.newContext()
        let task = GTask(context: context)
        task.title = "t"
        let project = GProject(context: context)
        project.name = "p"
        task.project = project
        guard case .foreignKey(let slot, _) = task.entity.relationships[0].storage else { return XCTFail("project is a to-one") }
        var family = ContextFamily()
        family.setBaseline(.init(object: task, storage: task.storage, lists: [1: [-project.objectID.key, 5]], wasInserted: true, wasDeleted: false))
        XCTAssertEqual(family.baseline(of: task)?.storage[slot], .integer(-project.objectID.key))
        family.makeBaselinesPermanent([project.objectID.key: 42, task.objectID.key: 43]) { $0.entity.foreignKeySlots }
        XCTAssertEqual(family.baseline(of: task)?.storage[slot], .integer(42))
        XCTAssertEqual(family.baseline(of: task)?.lists[1], [42, 5])
        XCTAssertEqual(family.baseline(of: task)?.wasInserted, false, "saved by the parent")
        family.forgetBaseline(of: task)
        XCTAssertNil(family.baseline(of: task))
    }
}
