import Foundation
import XCTest

/// Issue 31: `tasks limits` shows and sets the daily limits kept in the store.
final class LimitsTests: XCTestCase {
    func testLimitsAreShownSetAndKept() throws {
        let fixture = try CLIFixture()
        XCTAssertEqual(try fixture.ok("limits").lines, ["A day's plan holds at most (open tasks):", "  high    1", "  normal  3", "  low     5"])
        XCTAssertEqual(try fixture.ok("limits", "--high", "2", "--low", "10").lines, ["Set the daily limits: high 2, normal 3, low 10"])
        XCTAssertEqual(try fixture.ok("limits").lines, ["A day's plan holds at most (open tasks):", "  high     2", "  normal   3",
                                                        "  low     10"])
        let json = try JSONSerialization.jsonObject(with: Data(try fixture.ok("limits", "--json").stdout.utf8)) as? [String: Int]
        XCTAssertEqual(json, ["high": 2, "normal": 3, "low": 10])
        for bad in ["100", "x", "1.5"] {
            try fixture.fails(["limits", "--normal", bad], status: 64, message: "'\(bad)' is not a limit (try a number from 0 to 99)")
        }
        try fixture.fails(["limits", "--normal=-1"], status: 64, message: "'-1' is not a limit (try a number from 0 to 99)")
    }
}
