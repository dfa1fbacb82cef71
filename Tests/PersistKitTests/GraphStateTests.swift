import XCTest
@testable import PersistKit

/// The graph state on its own: the generation only advances, and the list owners gathered at
/// one generation are current until the next.
final class GraphStateTests: XCTestCase {
    func testListOwnersAreCurrentForOneGeneration() {
        let entity = EntityDescription(name: "E", objectClass: ManagedObject.self, isClassBacked: false,
                                       attributes: [], valueTypes: [], uniquenessConstraints: [])
        let a = ManagedObject(entity: entity, insertInto: nil), b = ManagedObject(entity: entity, insertInto: nil)
        var graph = GraphState()
        XCTAssertNil(graph.currentListOwners, "nothing gathered yet")
        graph.addListOwner(a)
        XCTAssertNil(graph.currentListOwners, "an owner added to no gathering is not kept")
        graph.setListOwners([a])
        XCTAssertEqual(graph.currentListOwners?.map(ObjectIdentifier.init), [ObjectIdentifier(a)])
        graph.addListOwner(b)
        XCTAssertEqual(graph.currentListOwners?.map(ObjectIdentifier.init), [a, b].map(ObjectIdentifier.init))
        let before = graph.generation
        graph.advance()
        XCTAssertEqual(graph.generation, before + 1)
        XCTAssertNil(graph.currentListOwners, "the owners of an older generation are not current")
        graph.addListOwner(a)
        XCTAssertNil(graph.currentListOwners)
    }
}
