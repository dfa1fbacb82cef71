import Foundation
import XCTest

/// Issue 30, item 9: `tasks project ...`/`tasks projects` and `tasks tag ...`/`tasks tags`
/// are one code for both kinds, and behave alike.
final class LabelCommandTests: XCTestCase {
    private struct Kind {
        let noun: String
        let giving: (String) -> [String]
    }

    private let kinds = [Kind(noun: "project") { ["--project", $0] }, Kind(noun: "tag") { ["--tag", $0] }]

    func testProjectAndTagCommandsBehaveAlike() throws {
        for kind in kinds {
            let fixture = try CLIFixture()
            try fixture.makeEmptyStore()
            let list = try fixture.ok(kind.noun + "s").stdout
            XCTAssertTrue(list.hasPrefix("No \(kind.noun)s. "), list)
            try fixture.add(["Fix the gate"] + kind.giving("Home"))
            try fixture.add(["Paint"] + kind.giving("Garden"))

            XCTAssertEqual(try fixture.ok(kind.noun, "rename", "home", "House").stdout,
                           "Renamed \(kind.noun) \"Home\" to \"House\"\n")
            let before = fixture.storeBytes()
            XCTAssertEqual(try fixture.ok(kind.noun, "rename", "house", "House").stdout,
                           "Nothing changed: \(kind.noun) \"House\" already has that name\n")
            XCTAssertEqual(fixture.storeBytes(), before, "a rename to the same name writes nothing")
            XCTAssertEqual(try fixture.ok(kind.noun, "rename", "house", "HOUSE").stdout,
                           "Renamed \(kind.noun) \"House\" to \"HOUSE\"\n", "a change of case is a rename")
            try fixture.fails([kind.noun, "rename", "HOUSE", "garden"], status: 1,
                              message: "a \(kind.noun) named \"Garden\" already exists")
            try fixture.fails([kind.noun, "rename", "Nowhere", "Yard"], status: 1, message: "no \(kind.noun) named \"Nowhere\"")
            try fixture.fails([kind.noun, "rename", "HOUSE", "  "], status: 64, message: "a \(kind.noun)'s name cannot be empty")
            try fixture.fails([kind.noun, "rename", "HOUSE"], status: 64,
                              message: "missing expected argument '<new>' (see tasks \(kind.noun) rename --help)")
            let prefix = kind.noun == "project" ? "+" : "#"
            XCTAssertEqual(try fixture.ok(kind.noun + "s").lines, ["\(prefix)Garden  1 open  0 done", "\(prefix)HOUSE   1 open  0 done"])
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try fixture.ok(kind.noun + "s", "--json").stdout.utf8))
                                     as? [String: [[String: Any]]])
            XCTAssertEqual(json[kind.noun + "s"]?.compactMap { $0["name"] as? String }, ["Garden", "HOUSE"])
        }
    }
}
