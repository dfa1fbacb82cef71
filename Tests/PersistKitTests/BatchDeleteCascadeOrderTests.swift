import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A shelf cascades to its boxes, a box to its items: two levels.
private final class COShelf: ManagedObject {
    override class var entityName: String { "Shelf" }
    @Attribute var name = ""
    @Relationship(deleteRule: .cascade) var boxes: Set<COBox>
}

private final class COBox: ManagedObject {
    override class var entityName: String { "Box" }
    @Attribute var label = ""
    @Relationship(inverse: \COShelf.boxes) var shelf: COShelf?
    @Relationship(deleteRule: .cascade) var items: Set<COItem>
}

private final class COItem: ManagedObject {
    override class var entityName: String { "Item" }
    @Attribute var name = ""
    @Relationship(inverse: \COBox.items) var box: COBox?
}

/// A batch delete's cascade finds rows in the order of the links it follows, not of their keys:
/// the result and the history still name every deleted row once, in ascending key order.
final class BatchDeleteCascadeOrderTests: XCTestCase {
    func testACascadeReportsItsRowsInKeyOrder() throws {
        let seed = testSeed("testACascadeReportsItsRowsInKeyOrder")
        var generator = SeededGenerator(seed: seed)
        let directory = TemporaryDirectory()
        let container = try PersistentContainer(model: ManagedObjectModel(entities: [COShelf.self, COBox.self, COItem.self]),
                                                store: .sqlite(directory.file("shelves.sqlite")))
        let context = container.newContext()
        let shelves = (0..<4).map { index -> COShelf in
            let shelf = COShelf(context: context)
            shelf.name = "s\(index)"
            return shelf
        }
        // Boxes and items go to random shelves and boxes: their keys interleave across owners.
        var boxes: [COBox] = []
        for index in 0..<testSize("testACascadeReportsItsRowsInKeyOrder", full: 60, ci: 20) {
            let box = COBox(context: context)
            box.label = "b\(index)"
            box.shelf = shelves[Int.random(in: 0..<shelves.count, using: &generator)]
            boxes.append(box)
        }
        var items: [COItem] = []
        for index in 0..<(boxes.count * 3) {
            let item = COItem(context: context)
            item.name = "i\(index)"
            item.box = boxes[Int.random(in: 0..<boxes.count, using: &generator)]
            items.append(item)
        }
        let loose = COItem(context: context)
        loose.name = "loose"
        try context.save()
        let doomedShelves: [COShelf] = shelves.filter { _ in Bool.random(using: &generator) } + [shelves[0]]
        let doomedBoxes = boxes.filter { box in doomedShelves.contains { $0 === box.shelf } }
        let doomedItems = items.filter { item in doomedBoxes.contains { $0 === item.box } }
        let expected = (doomedShelves + doomedBoxes + doomedItems).map(\.objectID)
        let start = try container.currentHistoryToken()

        let names: [String] = Set(doomedShelves.map(\.name)).sorted()
        let result = try context.execute(BatchDeleteRequest<COShelf>(predicate: try FetchPredicate(format: "name IN %@", argumentArray: [names])))

        XCTAssertEqual(Set(result.objectIDs), Set(expected), "seed \(seed)")
        XCTAssertEqual(result.objectIDs.count, Set(expected).count, "each row once (seed \(seed))")
        for entity in ["Shelf", "Box", "Item"] {
            let keys = result.objectIDs.filter { $0.entityName == entity }.map(\.key)
            XCTAssertEqual(keys, keys.sorted(), "\(entity) rows in key order (seed \(seed))")
        }
        let deletes = try container.history(after: start).flatMap(\.changes).filter { $0.kind == .delete }.map(\.objectID)
        XCTAssertEqual(Set(deletes), Set(expected), "seed \(seed)")
        XCTAssertEqual(deletes.count, Set(expected).count, "seed \(seed)")
        let left = try container.newContext().fetch(FetchRequest<COItem>()).map(\.name)
        XCTAssertEqual(Set(left), Set(items.filter { item in !doomedItems.contains { $0 === item } }.map(\.name) + ["loose"]))
    }
}
