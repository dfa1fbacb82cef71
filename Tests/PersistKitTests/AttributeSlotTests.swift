import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A base class's attributes, not an entity itself: its subclass's entity has them first.
class SlotBase: ManagedObject {
    @Attribute var first: String
    @Attribute var second = 0
}

class SlotChild: SlotBase {
    override class var entityName: String { "SlotChild" }
    @Attribute var third: Double?
    @Attribute var fourth = "four"
}

/// Not in the model: made with `SlotChild`'s entity, it is not the entity's class.
final class SlotGrandChild: SlotChild {
    @Attribute var extra = 5
}

/// `@Attribute` accessors find their slot in the wrapper itself (given when the object is
/// made, or on first use for an object of another class than its entity's): each attribute
/// must read and write its own slot, superclass attributes included.
final class AttributeSlotTests: XCTestCase {
    func testInheritedAndOwnAttributesUseTheirOwnSlots() throws {
        let directory = TemporaryDirectory()
        let url = directory.url.appendingPathComponent("slots.sqlite")
        let model = try ManagedObjectModel(entities: [SlotChild.self])
        XCTAssertEqual(model.entity(for: SlotChild.self)?.attributeNames, ["first", "second", "third", "fourth"])
        let container = try PersistentContainer(model: model, store: .sqlite(url))
        let context = container.newContext()
        let child = SlotChild(context: context)
        XCTAssertEqual(child.second, 0)
        XCTAssertEqual(child.fourth, "four")
        XCTAssertNil(child.third)
        child.first = "one"
        child.second = 2
        child.third = 3.5
        child.fourth = "FOUR"
        XCTAssertEqual(child.changedValues().count, 4)
        XCTAssertEqual(child.changedValues()["third"] as? Double, 3.5)
        try context.save()

        let reader = container.newContext()
        let fetched = try XCTUnwrap(reader.fetch(FetchRequest<SlotChild>()).first)
        XCTAssertEqual(fetched.first, "one")
        XCTAssertEqual(fetched.second, 2)
        XCTAssertEqual(fetched.third, 3.5)
        XCTAssertEqual(fetched.fourth, "FOUR")
        XCTAssertEqual(fetched.committedValues(forKeys: ["second"])["second"] as? Int, 2)
        fetched.second = 20
        XCTAssertEqual(Array(fetched.changedValues().keys), ["second"])
        let sorted = try container.newContext().fetch(FetchRequest<SlotChild>(predicate: \.third > 3,
                                                                              sortBy: [FetchSortDescriptor(\.fourth)]))
        XCTAssertEqual(sorted.map(\.first), ["one"])
    }

    func testObjectOfAnotherClassThanItsEntityFindsItsSlotsOnFirstUse() throws {
        let model = try ManagedObjectModel(entities: [SlotChild.self])
        let entity = try XCTUnwrap(model.entity(for: SlotChild.self))
        let container = try PersistentContainer(model: model, store: .inMemory)
        let context = container.newContext()
        // The entity's class is SlotChild: the wrappers are not given their slots at init.
        let object = SlotGrandChild(entity: entity, insertInto: nil)
        object.first = "a"
        object.second = 7
        XCTAssertEqual(object.first, "a")
        XCTAssertEqual(object.second, 7)
        XCTAssertEqual(object.storage[0], .text("a"))
        XCTAssertEqual(object.storage[1], .integer(7))
        // `extra` is a fifth wrapper, which the entity does not have: it has no slot, reads as its initial value, and a write changes nothing.
        object.extra = 9
        XCTAssertEqual(object.extra, 5)
        XCTAssertEqual(object.storage[2], .null)
        XCTAssertEqual(object.storage[3], .text("four"))
        _ = context
    }

    func testManyObjectsOfOneClassAllReadTheirOwnValues() throws {
        let container = try PersistentContainer(model: ManagedObjectModel(entities: [SlotChild.self]), store: .inMemory)
        let context = container.newContext()
        let reader = container.newContext()
        let count = testSize("AttributeSlotTests objects", full: 2_000, ci: 500)
        for index in 0..<count {
            let child = SlotChild(context: context)
            child.first = "n\(index)"
            child.second = index
            child.third = index.isMultiple(of: 2) ? Double(index) : nil
        }
        try context.save()
        let fetched = try reader.fetch(FetchRequest<SlotChild>(sortBy: [FetchSortDescriptor(\.second)]))
        XCTAssertEqual(fetched.count, count)
        for (index, child) in fetched.enumerated() {
            XCTAssertEqual(child.first, "n\(index)")
            XCTAssertEqual(child.second, index)
            XCTAssertEqual(child.third, index.isMultiple(of: 2) ? Double(index) : nil)
            XCTAssertEqual(child.fourth, "four")
        }
    }
}
