import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Generated predicates: well-formed ones round-trip, random fragments and mutations never crash.
final class PredicateFormatGeneratedTests: PredicateFormatTestCase {
    // MARK: - Generated well-formed predicates

    private static func seed(_ name: String = #function) -> UInt64 {
        testSeed("PredicateFormatParserTests.\(name)")
    }

    /// Builds a random well-formed format and its expected rendering.
    private func randomPredicate(_ rng: inout SeededGenerator, depth: Int, arguments: inout [Any]) -> (String, String) {
        let choice = depth <= 0 ? Int.random(in: 0..<6, using: &rng) : Int.random(in: 0..<10, using: &rng)
        switch choice {
        case 6, 7:
            let (lf, lr) = randomPredicate(&rng, depth: depth - 1, arguments: &arguments)
            let (rf, rr) = randomPredicate(&rng, depth: depth - 1, arguments: &arguments)
            let isAnd = Bool.random(using: &rng)
            let word = isAnd ? ["AND", "and", "&&"].randomElement(using: &rng) ?? "AND"
                             : ["OR", "or", "||"].randomElement(using: &rng) ?? "OR"
            return ("(\(lf) \(word) \(rf))", "(\(lr) \(isAnd ? "AND" : "OR") \(rr))")
        case 8:
            let (f, r) = randomPredicate(&rng, depth: depth - 1, arguments: &arguments)
            let word = ["NOT ", "not ", "!"].randomElement(using: &rng) ?? "NOT "
            return ("\(word)(\(f))", "NOT \(r)")
        case 9:
            return Bool.random(using: &rng) ? ("TRUEPREDICATE", "TRUEPREDICATE") : ("falsepredicate", "FALSEPREDICATE")
        default:
            let (lf, lr) = randomOperand(&rng, arguments: &arguments)
            let (rf, rr) = randomOperand(&rng, arguments: &arguments)
            let ops: [(String, String)] = [("==", "=="), ("=", "=="), ("!=", "!="), ("<>", "!="), ("<", "<"),
                                           ("<=", "<="), ("=<", "<="), (">", ">"), (">=", ">="), ("=>", ">="),
                                           ("CONTAINS", "CONTAINS"), ("beginswith", "BEGINSWITH"),
                                           ("EndsWith", "ENDSWITH"), ("LIKE", "LIKE"), ("IN", "IN")]
            let (of, or) = ops.randomElement(using: &rng) ?? ("==", "==")
            let options: [(String, String)] = [("", ""), ("[c]", "[c]"), ("[d]", "[d]"), ("[cd]", "[cd]"), ("[DC]", "[cd]")]
            let (pf, pr) = options.randomElement(using: &rng) ?? ("", "")
            return ("\(lf) \(of)\(pf) \(rf)", "\(lr) \(or)\(pr) \(rr)")
        }
    }

    private func randomOperand(_ rng: inout SeededGenerator, arguments: inout [Any]) -> (String, String) {
        switch Int.random(in: 0..<9, using: &rng) {
        case 0:
            let name = ["name", "due", "project.name", "a_b", "x1.y2.z3", "größe"].randomElement(using: &rng) ?? "name"
            return (name, name)
        case 1:
            let name = ["order", "IN", "and"].randomElement(using: &rng) ?? "order"
            return ("#\(name)", name)
        case 2:
            let n = Int64.random(in: Int64.min...Int64.max, using: &rng)
            return (String(n), String(n))
        case 3:
            let index = arguments.count
            arguments.append("value")
            return ("%@", "$\(index)")
        case 4:
            let name = ["title", "a.b"].randomElement(using: &rng) ?? "title"
            arguments.append(name)
            return ("%K", name)
        case 5:
            let n = Int.random(in: -1000...1000, using: &rng)
            arguments.append(n)
            return ("%ld", String(n))
        case 6:
            let word = ["nil", "NULL", "YES", "no", "TRUE", "false"].randomElement(using: &rng) ?? "nil"
            let rendered = ["NIL": "nil", "NULL": "nil", "YES": "YES", "NO": "NO", "TRUE": "YES", "FALSE": "NO"][word.uppercased()] ?? ""
            return (word, rendered)
        case 7:
            let text = ["", "abc", "it's", "naïve", "😀"].randomElement(using: &rng) ?? ""
            let escaped = text.replacingOccurrences(of: "'", with: "\\'")
            return ("'\(escaped)'", "'\(text)'")
        default:
            let count = Int.random(in: 0...3, using: &rng)
            let items = (0..<count).map { _ in Int.random(in: 0...99, using: &rng) }
            return ("{" + items.map(String.init).joined(separator: ", ") + "}",
                    "{" + items.map(String.init).joined(separator: ", ") + "}")
        }
    }

    func testGeneratedPredicatesRoundTrip() {
        let seed = Self.seed()
        var rng = SeededGenerator(seed: seed)
        for iteration in 0..<3000 {
            var arguments: [Any] = []
            let (format, expected) = randomPredicate(&rng, depth: Int.random(in: 0...4, using: &rng), arguments: &arguments)
            do {
                let expression = try PredicateFormatParser.parse(format, arguments: arguments)
                let rendered = render(expression)
                if rendered != expected {
                    XCTFail("seed \(seed), iteration \(iteration): \(format)\n  parsed:   \(rendered)\n  expected: \(expected)")
                    return
                }
            } catch {
                XCTFail("seed \(seed), iteration \(iteration): \(format) failed: \(error)")
                return
            }
        }
    }

    // MARK: - Fuzz

    private static let fragments: [String] = [
        "a", "name", "project.name", "#order", "#", ".", "..", "x.", " ", "  ", "\t", "\n",
        "==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>", "!", "&&", "||", "&", "|",
        "AND", "OR", "NOT", "and", "or", "not", "IN", "in", "LIKE", "CONTAINS", "BEGINSWITH", "ENDSWITH",
        "BETWEEN", "TRUEPREDICATE", "FALSEPREDICATE", "ANY", "SELF", "MATCHES",
        "[", "]", "[c]", "[d]", "[cd]", "[dc]", "[x]", "[", "(", ")", "(", ")", "{", "}", ",",
        "%@", "%K", "%d", "%ld", "%lld", "%u", "%f", "%lf", "%", "%%", "%s", "%l",
        "nil", "NULL", "YES", "NO", "TRUE", "FALSE",
        "0", "1", "-1", "42", "-", "0x", "0x1F", "0xFFFFFFFFFFFFFFFFFF", "0b101", "0o9", "1.5", "1.", ".5", "1e", "1e5",
        "1e999", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "99999999999999999999999",
        "\"", "'", "\"abc\"", "'abc'", "\\", "\\n", "\\u", "\\u00e9", "\\uD800", "\\uDC00", "\\uD83D\\uDE00", "\\q",
        "é", "e\u{301}", "😀", "🇫🇷", "\u{0}", "\u{7}", "\u{FEFF}", "\u{200B}", "$", "@", ";", "+", "“",
    ]

    private static var fuzzArguments: [Any] {[
        "name", "", 1, -1, Int64.max, UInt64.max, 2.5, Float(1.5), true, [1, 2], Optional<Int>.none as Any,
        Substring("sub"), Int8(3), UInt8(4),
    ]}

    /// A random string of grammar fragments and random scalars.
    private func randomFragments(_ rng: inout SeededGenerator) -> String {
        var format = ""
        for _ in 0..<Int.random(in: 0...14, using: &rng) {
            if Int.random(in: 0..<5, using: &rng) == 0 {
                format.unicodeScalars.append(Unicode.Scalar(UInt32.random(in: 0...0x2FFFF, using: &rng)) ?? "?")
            } else {
                format += Self.fragments.randomElement(using: &rng) ?? ""
                if Bool.random(using: &rng) { format += " " }
            }
        }
        return format
    }

    /// Deletes, inserts, replaces or truncates at random scalar positions.
    private func mutate(_ format: String, _ rng: inout SeededGenerator) -> String {
        var scalars = Array(format.unicodeScalars)
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let at = Int.random(in: 0...scalars.count, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0 where at < scalars.count:
                scalars.removeSubrange(at..<min(scalars.count, at + Int.random(in: 1...4, using: &rng)))
            case 1:
                scalars.insert(contentsOf: (Self.fragments.randomElement(using: &rng) ?? "").unicodeScalars, at: at)
            case 2 where at < scalars.count:
                scalars[at] = Unicode.Scalar(UInt32.random(in: 0x20...0x7E, using: &rng)) ?? "?"
            default:
                scalars.removeSubrange(at..<scalars.count)
            }
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    func testFuzzNeverCrashes() {
        let seed = Self.seed() ^ 0xF0F0
        var rng = SeededGenerator(seed: seed)
        var parsed = 0
        var rejected = 0
        for iteration in 0..<20_000 {
            var format: String
            var arguments: [Any] = []
            switch iteration % 3 {
            case 0:
                format = randomFragments(&rng)
            case 1:
                (format, _) = randomPredicate(&rng, depth: Int.random(in: 0...3, using: &rng), arguments: &arguments)
                format = mutate(format, &rng)
            default:
                (format, _) = randomPredicate(&rng, depth: Int.random(in: 0...3, using: &rng), arguments: &arguments)
                if Bool.random(using: &rng) { format = mutate(format, &rng) }
            }
            if iteration % 3 == 0 || Int.random(in: 0..<4, using: &rng) == 0 {
                arguments = (0..<Int.random(in: 0...4, using: &rng)).map { _ in
                    Self.fuzzArguments.randomElement(using: &rng) ?? 0
                }
            }
        do {
                _ = try PredicateFormatParser.parse(format, arguments: arguments)
                parsed += 1
            } catch let error as PersistError {
                guard error.code == .invalidPredicate, error.message.contains("at position ") else {
                    XCTFail("seed \(seed), iteration \(iteration): \(format.debugDescription) threw \(error)")
                    return
                }
                rejected += 1
            } catch {
                XCTFail("seed \(seed), iteration \(iteration): \(format.debugDescription) threw a non-PersistError \(error)")
                return
            }
        }
        print("PredicateFormatParser fuzz: \(parsed) parsed, \(rejected) rejected")
        XCTAssertEqual(parsed + rejected, 20_000)
        XCTAssertGreaterThan(parsed, 0, "seed \(seed): the fuzz inputs never parsed; the generator is too hostile")
    }
}
