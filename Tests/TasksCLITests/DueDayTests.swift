import Foundation
import XCTest

/// A due given as a day is the same calendar day in every time zone; one given with a time is
/// that instant.
final class DueDayTests: XCTestCase {
    func testADueDayStaysTheSameDayWhenTheTimeZoneChanges() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let task = try fixture.run(["add", "Pay rent", "--due", "2030-12-01"], environment: ["TZ": "Pacific/Kiritimati"])
        XCTAssertEqual(task.status, 0, task.stderr)
        for zone in ["Pacific/Kiritimati", "Asia/Tokyo", "UTC", "America/New_York", "Pacific/Pago_Pago"] {
            let result = try fixture.run(["list", "--json"], environment: ["TZ": zone])
            let list = try JSONDecoder().decode(ListOutput.self, from: Data(result.stdout.utf8))
            XCTAssertEqual(list.allTasks.first?.due, "2030-12-01", zone)
            XCTAssertNil(list.allTasks.first?.dueAt, zone)
        }
    }

    func testADueWithATimeIsAnInstant() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let number = try fixture.run(["add", "Dentist", "--due", "2030-12-01 14:30"], environment: ["TZ": "Europe/Paris"])
        XCTAssertEqual(number.status, 0, number.stderr)
        let paris = try JSONDecoder().decode(ListOutput.self, from: Data(try fixture.run(["list", "--json"], environment: ["TZ": "Europe/Paris"]).stdout.utf8))
        XCTAssertEqual(paris.allTasks.first?.dueAt, "2030-12-01T13:30:00.000Z")
        XCTAssertEqual(paris.allTasks.first?.due, "2030-12-01")
        let tokyo = try JSONDecoder().decode(ListOutput.self, from: Data(try fixture.run(["list", "--json"], environment: ["TZ": "Asia/Tokyo"]).stdout.utf8))
        XCTAssertEqual(tokyo.allTasks.first?.due, "2030-12-01", "22:30 in Tokyo")
        let row = try XCTUnwrap(try fixture.run(["list"], environment: ["TZ": "Europe/Paris"]).stdout.split(separator: "\n").dropFirst().first)
        XCTAssertTrue(row.contains("Dentist") && (row.contains("14:30") || row.contains("2:30")), String(row))
    }
}
