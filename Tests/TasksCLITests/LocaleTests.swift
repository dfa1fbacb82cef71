import Foundation
import XCTest

/// Issue 25, item 10: dates and times follow the POSIX locale variables; the C and POSIX
/// locales (and no locale at all) get plain ASCII, never the narrow no-break space
/// Foundation puts before AM and PM.
final class LocaleTests: XCTestCase {
    private let now: [String: String?] = ["TASKS_NOW": "2026-11-21T09:00:00Z", "TZ": "UTC"]

    private func environment(_ locale: [String: String?]) -> [String: String?] {
        now.merging(["LC_ALL": nil, "LC_TIME": nil, "LANG": nil]) { $1 }.merging(locale) { $1 }
    }

    func testTheCAndPOSIXLocalesGetPlainASCII() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let task = try fixture.add("Call mom", "--due", "2026-11-24 18:30", "--remind", "2026-11-24 09:15")
        let done = try fixture.add("Done")
        XCTAssertEqual(try fixture.run(["done", String(done)], environment: now).status, 0)
        for locale: [String: String?] in [["LC_ALL": "C"], ["LC_ALL": "POSIX"], ["LANG": "C"], [:], ["LC_TIME": "C", "LANG": "C.UTF-8"],
                                          ["LANG": "en_US.ISO-8859-1"]] {
            for arguments in [["show", String(task)], ["list"], ["stats"]] {
                let result = try fixture.run(arguments, environment: environment(locale))
                XCTAssertEqual(result.status, 0, result.stderr)
                XCTAssertTrue(result.stdout.unicodeScalars.allSatisfy(\.isASCII), "\(locale) \(arguments): \(result.stdout.debugDescription)")
            }
        }
        let show = try fixture.run(["show", String(task)], environment: environment(["LC_ALL": "C"])).lines
        XCTAssertEqual(show.first { $0.hasPrefix("Remind:") }, "Remind:  24 Nov 2026 at 9:15 AM")
        XCTAssertEqual(show.first { $0.hasPrefix("Due:") }, "Due:     24 Nov 2026 at 6:30 PM")
        let stats = try fixture.run(["stats"], environment: environment(["LC_ALL": "C"])).lines
        XCTAssertEqual(stats.first { $0.hasPrefix("  Sat, 21 Nov") }, "  Sat, 21 Nov  # 1")
    }

    func testAUTF8LocaleKeepsItsOwnStyles() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let task = try fixture.add("Call mom", "--due", "2026-11-24 18:30")
        let german = try fixture.run(["show", String(task)], environment: environment(["LANG": "de_DE.UTF-8"])).lines
        XCTAssertEqual(german.first { $0.hasPrefix("Due:") }, "Due:     24.11.2026, 18:30")
        let english = try fixture.run(["show", String(task)], environment: environment(["LC_ALL": "C.UTF-8"])).lines
        XCTAssertEqual(english.first { $0.hasPrefix("Due:") }, "Due:     24 Nov 2026 at 6:30\u{202F}PM", "Foundation's own style, Unicode allowed")
    }
}
