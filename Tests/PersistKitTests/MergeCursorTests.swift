import XCTest
@testable import PersistKit

/// The merge cursor on its own: each merge moves the position and counts one more, a reset
/// skips the log and is counted.
final class MergeCursorTests: XCTestCase {
    func testMergesAndResets() {
        var cursor = MergeCursor(after: 4)
        XCTAssertEqual(cursor.sequence, 4)
        XCTAssertEqual(cursor.mergeCount, 1)
        XCTAssertEqual(cursor.beginMerge(through: 9), 1, "objects read before the first merge have count 1")
        XCTAssertEqual(cursor.sequence, 9)
        XCTAssertEqual(cursor.mergeCount, 2)
        XCTAssertEqual(cursor.beginMerge(through: 9), 2, "a merge that finds nothing new is still counted")
        XCTAssertEqual(cursor.resetCount, 0)
        cursor.noteReset()
        cursor.skip(through: 20)
        XCTAssertEqual(cursor.resetCount, 1)
        XCTAssertEqual(cursor.sequence, 20)
        XCTAssertEqual(cursor.mergeCount, 3, "a reset is not a merge")
    }
}
