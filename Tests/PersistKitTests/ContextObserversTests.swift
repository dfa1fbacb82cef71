import XCTest
@testable import PersistKit

/// The observer list on its own: ids in the order added, never reused, removal, and the
/// delivery flag.
final class ContextObserversTests: XCTestCase {
    func testObserversInOrderAndIdsNeverReused() {
        var observers = ContextObservers()
        XCTAssertTrue(observers.isEmpty)
        var heard: [String] = []
        let first = observers.add { _ in heard.append("first") }
        let second = observers.add { _ in heard.append("second") }
        let third = observers.add { _ in heard.append("third") }
        observers.remove(second)
        let fourth = observers.add { _ in heard.append("fourth") }
        XCTAssertFalse([first, second, third].contains(fourth), "an id is never reused")
        XCTAssertEqual(observers.ids, [first, third, fourth])
        for id in observers.ids { observers.observer(id)?(ContextChanges()) }
        XCTAssertEqual(heard, ["first", "third", "fourth"])
        XCTAssertNil(observers.observer(second))
        observers.remove(second)   // removing twice is harmless
        XCTAssertFalse(observers.isEmpty)
    }

    func testDeliveringFlag() {
        var observers = ContextObservers()
        XCTAssertFalse(observers.isDelivering)
        observers.setDelivering(true)
        XCTAssertTrue(observers.isDelivering)
        observers.setDelivering(false)
        XCTAssertFalse(observers.isDelivering)
    }
}
