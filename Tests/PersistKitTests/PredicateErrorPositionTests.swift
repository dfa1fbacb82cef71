import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Every error a format string makes carries `PersistError.position`: the character offset of
/// the offending token, the same number the message gives ("at position N").
final class PredicateErrorPositionTests: XCTestCase {
    private func error(_ format: String, _ arguments: [Any] = [], file: StaticString = #filePath, line: UInt = #line) -> PersistError? {
        do {
            _ = try FetchPredicate<TestTask>(format: format, argumentArray: arguments)
            XCTFail("\(format) parsed", file: file, line: line)
            return nil
        } catch let error as PersistError {
            return error
        } catch {
            XCTFail("not a PersistError: \(error)", file: file, line: line)
            return nil
        }
    }

    /// The position the message names, if it names one.
    private func statedPosition(_ error: PersistError) -> Int? {
        guard let range = error.message.range(of: "at position ") else { return nil }
        return Int(error.message[range.upperBound...].prefix { $0.isNumber })
    }

    func testEachKindOfErrorNamesItsToken() {
        let cases: [(format: String, arguments: [Any], position: Int)] = [
            ("name ==", [], 7),                             // end of format: a value is missing
            ("name == 'a' AND", [], 15),                    // end of format after AND
            ("name CONTAINS[x] %@", ["a"], 14),             // the unknown option
            ("titel == %@", ["a"], 0),                      // the unknown key
            ("name MATCHES 'a('", [], 5),                   // the operator of the bad regex
            ("(name == 'a'", [], 12),                       // the missing ')'
            ("name == %@", [], 8),                          // the missing argument
            ("name == %@", ["a", "b"], 10),                 // an argument too many: end of format
            ("name == 'a' OR OR count == 1", [], 15),       // the second OR
            ("count == 'many'", [], 6),                     // a string for a number, at the operator
            ("name == 'unterminated", [], 8),               // the opening quote
            ("name == @", [], 8),                           // a character that starts nothing
            ("naïve == 1 AND ümlaut == 2", [], 0),          // positions count characters, not bytes
            ("name == 'é' AND titel == 1", [], 16),         // ... after a non-ASCII character too
        ]
        for (format, arguments, position) in cases {
            guard let error = error(format, arguments) else { continue }
            XCTAssertEqual(error.code, .invalidPredicate, format)
            XCTAssertEqual(error.position, position, "\(format): \(error.message)")
            XCTAssertEqual(statedPosition(error), error.position, "\(format): the message names the same position")
            if case .invalidPredicate(_, _, let reasonPosition) = error.reason {
                XCTAssertEqual(reasonPosition, position, format)
            }
        }
    }

    /// Generated: valid formats with random edits. Every error names a position inside the
    /// format (its end included), and the message names the same one.
    func testEveryFormatErrorHasAPosition() {
        let seed = testSeed("PredicateErrorPositionTests.testEveryFormatErrorHasAPosition")
        let rounds = testSize("PredicateErrorPositionTests.testEveryFormatErrorHasAPosition", full: 4000, ci: 1000)
        var random = SeededGenerator(seed: seed)
        let valid = ["name == 'a' AND count > 2", "(name BEGINSWITH[c] 'b' OR notes CONTAINS 'x') AND NOT isComplete == YES",
                     "count BETWEEN {1, 5}", "name IN {'a', 'b'} OR count IN %@", "name MATCHES '[a-z]+' AND due == nil",
                     "name LIKE[cd] 'a*?' OR estimate >= 1.5e2", "#count == 0x1F", "priority == %@ AND name != \"q\\n\""]
        let pieces = ["(", ")", "{", "}", "'", "\"", "%@", "%K", "%d", "AND", "OR", "NOT", "==", "<", "IN", "[c]", "[", "]", ",",
                      "name", "count", "titel", "ANY", "@count", "SUBQUERY(", "$x", "1", "-", ".", "\\", "é", " ", "BETWEEN", "MATCHES"]
        var errors = 0
        for round in 0..<rounds {
            var characters = Array(valid.randomElement(using: &random)!)
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let at = Int.random(in: 0...characters.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0 where !characters.isEmpty: characters.remove(at: min(at, characters.count - 1))
                default: characters.insert(contentsOf: pieces.randomElement(using: &random)!, at: at)
                }
            }
            let format = String(characters)
            let arguments: [Any] = (0..<Int.random(in: 0...3, using: &random)).map { _ in [1, 2] as [Int] }
            do {
                _ = try FetchPredicate<TestTask>(format: format, argumentArray: arguments)
            } catch let error as PersistError {
                errors += 1
                guard let position = error.position else {
                    XCTFail("seed \(seed) round \(round): no position: \(format) -> \(error.message)")
                    continue
                }
                XCTAssertTrue((0...format.count).contains(position), "seed \(seed) round \(round): \(format) -> \(position)")
                if let stated = statedPosition(error) {
                    XCTAssertEqual(stated, position, "seed \(seed) round \(round): \(format) -> \(error.message)")
                }
            } catch {
                XCTFail("seed \(seed) round \(round): not a PersistError: \(error)")
            }
        }
        XCTAssertGreaterThan(errors, rounds / 4, "the edits make errors")
    }
}
