import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit
@testable import PersistKitText

/// Tests of ``TextFolding``, ``TextMatcher`` and ``TextCollation``: named cases, then generated ones.
///
/// Generated tests print their seed; set `PERSISTKIT_SEED` to replay a failure.
final class TextMatchingTests: XCTestCase {
    private let cd: TextOptions = [.caseInsensitive, .diacriticInsensitive]

    private func match(
        _ value: String, _ op: TextMatchOperator, _ pattern: String, _ options: TextOptions = []
    ) -> Bool {
        TextMatcher.matches(op, value: value, pattern: pattern, options: options)
    }

    private func match(
        bytes value: [UInt8], _ op: TextMatchOperator, _ pattern: [UInt8], _ options: TextOptions
    ) -> Bool {
        value.withUnsafeBufferPointer { v in
            pattern.withUnsafeBufferPointer { p in TextMatcher.matches(op, value: v, pattern: p, options: options) }
        }
    }

    // MARK: - Folding

    func testFolding() {
        XCTAssertEqual(TextFolding.fold("ÉCLAIR", cd), "eclair")
        XCTAssertEqual(TextFolding.fold("Straße", .caseInsensitive), "strasse")
        XCTAssertEqual(TextFolding.fold("İ", cd), "i")
        XCTAssertEqual(Array(TextFolding.fold("İ", .caseInsensitive).unicodeScalars), ["i", "\u{307}"])
        XCTAssertEqual(TextFolding.fold("\u{212A}", .caseInsensitive), "k")  // Kelvin sign
        XCTAssertEqual(TextFolding.fold("ΟΔΟΣ ς", .caseInsensitive), "οδοσ σ")
        XCTAssertEqual(TextFolding.fold("ﬁ", .caseInsensitive), "fi")
        XCTAssertEqual(TextFolding.fold("ø", cd), "ø")
        XCTAssertEqual(TextFolding.fold("ᾳ", .diacriticInsensitive), "α")
        XCTAssertEqual(Array(TextFolding.fold("é", .caseInsensitive).unicodeScalars), ["e", "\u{301}"])
        // No options: untouched, not even normalized.
        XCTAssertEqual(Array(TextFolding.fold("É", []).unicodeScalars), ["\u{C9}"])
    }

    func testEveryScalarNormalizesAndFoldsAsFoundation() {
        // Each scalar on its own: the tables (and Hangul arithmetic) against Foundation's NFD. And
        // folding segment by segment equals folding whole strings only if no starter's case folding
        // starts with a mark (which NFD could reorder into the segment before it).
        var mismatches: [String] = []
        var offenders: [String] = []
        func isStarter(_ value: UInt32?) -> Bool {
            value.flatMap(Unicode.Scalar.init).map { $0.properties.canonicalCombiningClass.rawValue == 0 } ?? true
        }
        for value in UInt32(0x80)..<0x30000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(Character(scalar))
            let decomposed = TextFolding.scalars(of: text, folding: [])
            if decomposed != text.decomposedStringWithCanonicalMapping.unicodeScalars.map(\.value) {
                mismatches.append(String(value, radix: 16))
            }
            guard isStarter(value), isStarter(decomposed.first) else { continue }
            if !isStarter(TextFolding.scalars(of: text, folding: .caseInsensitive).first)
                || !isStarter(TextFolding.scalars(of: text, folding: cd).first) {
                offenders.append(String(value, radix: 16))
            }
        }
        XCTAssertEqual(mismatches, [], "NFD differs from Foundation")
        XCTAssertEqual(offenders, [], "case folding starts with a mark")
    }

    func testGeneratedFoldingAgreesWithWholeStringFoundationFolding() {
        var rng = makeRNG(#function)
        let marks = ["\u{301}", "\u{308}", "\u{323}", "\u{345}", "\u{327}", "\u{302}", "\u{1AB0}", "\u{5B0}"]
        let pieces = Self.pieces + marks + ["ǅ", "ΐ", "Ǖ", "ﬀ", "가", "각", "ᄀ", "\u{1161}", "ẞ", "ŉ", "Ω", "\u{2126}"]
        for _ in 0..<4000 {
            let text = Self.randomString(&rng, from: pieces, maxPieces: 8)
            for options in [TextOptions(), .caseInsensitive, .diacriticInsensitive, cd] {
                XCTAssertEqual(
                    TextFolding.scalars(of: text, folding: options), Self.referenceFold(text, options),
                    "\(options.rawValue) \(text.unicodeScalars.map { String($0.value, radix: 16) })")
            }
        }
    }

    func testGeneratedStreamingDecodingMatchesStringRepair() {
        var rng = makeRNG(#function)
        let bytes: [UInt8] = [0x61, 0x41, 0x80, 0xBF, 0xC3, 0xA9, 0xCC, 0x81, 0xE2, 0x82, 0xAC, 0xED, 0xA0, 0xF0, 0x9F, 0x98, 0x80, 0xF4, 0x90, 0xC0, 0xFF]
        for _ in 0..<5000 {
            let input = (0..<Int(rng.next() % 10)).map { _ in bytes[Int(rng.next() % UInt64(bytes.count))] }
            let expected = String(decoding: input, as: UTF8.self).decomposedStringWithCanonicalMapping.unicodeScalars.map(\.value)
            let actual = input.withUnsafeBufferPointer { buffer in
                var iterator = FoldedScalars(buffer, [])
                var result: [UInt32] = []
                while let value = iterator.next() { result.append(value) }
                return result
            }
            XCTAssertEqual(actual, expected, "\(input)")
        }
    }

    /// Folding as documented, on whole strings, through Foundation: the reference for the tables.
    private static func referenceFold(_ text: String, _ options: TextOptions) -> [UInt32] {
        func nfd(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            return Array(String(view).decomposedStringWithCanonicalMapping.unicodeScalars)
        }
        let dropMarks = options.contains(.diacriticInsensitive)
        var scalars = Array(text.decomposedStringWithCanonicalMapping.unicodeScalars)
        if dropMarks { scalars.removeAll { $0.properties.generalCategory == .nonspacingMark } }
        if options.contains(.caseInsensitive) {
            // Until it no longer changes: "ẞ" lowercases to "ß", which folds to "ss".
            var folded = scalars
            repeat {
                scalars = folded
                folded = scalars.flatMap { scalar in
                    scalar.properties.uppercaseMapping.unicodeScalars.flatMap { $0.properties.lowercaseMapping.unicodeScalars }
                }
            } while folded != scalars
            scalars = nfd(scalars)
            if dropMarks { scalars.removeAll { $0.properties.generalCategory == .nonspacingMark } }
        }
        return scalars.map(\.value)
    }

    // MARK: - Named matching cases

    func testCaseAndDiacriticFolding() {
        XCTAssertTrue(match("ÉCLAIR", .contains, "éclair", cd))
        XCTAssertTrue(match("Un ÉCLAIR au café", .contains, "eclair", cd))
        XCTAssertFalse(match("ÉCLAIR", .contains, "eclair", .caseInsensitive))
        XCTAssertTrue(match("Eclair", .equal, "éclair", cd))
        XCTAssertFalse(match("Eclair", .equal, "éclair", .caseInsensitive))
        XCTAssertTrue(match("Éclair", .equal, "éclair", .caseInsensitive))
        XCTAssertTrue(match("eclair", .equal, "éclair", .diacriticInsensitive))
        XCTAssertFalse(match("Eclair", .equal, "éclair", .diacriticInsensitive))
        XCTAssertTrue(match("straße", .equal, "STRASSE", .caseInsensitive))
        XCTAssertTrue(match("STRAẞE", .equal, "strasse", .caseInsensitive), "capital sharp s folds to ss, as ß does")
        XCTAssertTrue(match("STRAẞE", .contains, "aß", .caseInsensitive))
        XCTAssertTrue(match("STRASSE", .beginsWith, "straß", .caseInsensitive))
        XCTAssertTrue(match("İstanbul", .beginsWith, "istanbul", cd))
        XCTAssertFalse(match("İstanbul", .beginsWith, "istanbul", .caseInsensitive))
        XCTAssertTrue(match("ISTANBUL", .beginsWith, "istanbul", .caseInsensitive))
        XCTAssertTrue(match("Ångström", .endsWith, "STROM", cd))
        XCTAssertFalse(match("Ångström", .endsWith, "strom", .caseInsensitive))
        XCTAssertTrue(match("Éclair", .equal, "Éclair"))
        XCTAssertFalse(match("Éclair", .equal, "éclair"))
    }

    func testCharacterLevelMatching() {
        // Under [c] alone "é" is one character, so "cafe" is no prefix of "café".
        XCTAssertFalse(match("café", .contains, "cafe", .caseInsensitive))
        XCTAssertFalse(match("cafe\u{301}", .beginsWith, "cafe", .caseInsensitive))
        XCTAssertTrue(match("café", .contains, "cafe", cd))
        // Without options matching is on bytes, as in SQL.
        XCTAssertTrue(match("cafe\u{301}", .beginsWith, "cafe"))
    }

    func testPrecomposedAndDecomposed() {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        XCTAssertFalse(match(composed, .equal, decomposed))
        XCTAssertTrue(match(composed, .equal, decomposed, .caseInsensitive))
        XCTAssertTrue(match(composed, .equal, decomposed, .diacriticInsensitive))
        XCTAssertTrue(match(decomposed, .endsWith, "\u{E9}", .caseInsensitive))
        XCTAssertTrue(match(composed, .like, "caf?", .caseInsensitive))
        XCTAssertTrue(match(decomposed, .like, "caf?"))
        XCTAssertTrue(match(decomposed, .like, "caf\u{E9}", .diacriticInsensitive))
        XCTAssertFalse(match(decomposed, .like, "caf\u{E9}"))
    }

    func testEmoji() {
        XCTAssertTrue(match("I ❤️ Swift", .contains, "❤️ swift", .caseInsensitive))
        XCTAssertTrue(match("😀😀", .equal, "😀😀", cd))
        XCTAssertTrue(match("👨‍👩‍👧 family", .like, "? FAMILY", .caseInsensitive))
        // A family is one character: its members are not characters of it...
        XCTAssertFalse(match("👨‍👩‍👧", .contains, "👩", .caseInsensitive))
        // ...but without options they are bytes of it.
        XCTAssertTrue(match("👨‍👩‍👧", .contains, "👩"))
        XCTAssertFalse(match("🇫🇷🇩🇪", .contains, "🇷🇩", .caseInsensitive))
        XCTAssertTrue(match("🇫🇷🇩🇪", .contains, "🇩🇪", .caseInsensitive))
    }

    func testCarriageReturnLineFeedIsOneCharacter() {
        XCTAssertFalse(match("a\r\nb", .contains, "\r", .caseInsensitive))
        XCTAssertTrue(match("a\r\nb", .contains, "\r"))
        XCTAssertTrue(match("a\r\nb", .like, "a?b"))
        XCTAssertTrue(match("A\r\nB", .like, "a?b", .caseInsensitive))
        XCTAssertFalse(match("a\r\nb", .like, "a??b"))
    }

    func testEmptyStrings() {
        let all: [TextOptions] = [[], .caseInsensitive, .diacriticInsensitive, cd]
        for options in all {
            XCTAssertTrue(match("", .equal, "", options))
            XCTAssertTrue(match("", .contains, "", options))
            XCTAssertTrue(match("", .beginsWith, "", options))
            XCTAssertTrue(match("", .endsWith, "", options))
            XCTAssertTrue(match("", .like, "", options))
            XCTAssertTrue(match("", .like, "*", options))
            XCTAssertFalse(match("", .like, "?", options))
            XCTAssertTrue(match("abc", .contains, "", options))
            XCTAssertTrue(match("é", .beginsWith, "", options))
            XCTAssertTrue(match("é", .endsWith, "", options))
            XCTAssertFalse(match("abc", .equal, "", options))
            XCTAssertFalse(match("", .contains, "a", options))
            XCTAssertFalse(match("", .equal, "é", options))
            XCTAssertFalse(match("", .like, "a", options))
            let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
            for op in TextMatchOperator.allCases {
                XCTAssertTrue(TextMatcher.matches(op, value: empty, pattern: empty, options: options))
            }
        }
    }

    func testLike() {
        XCTAssertTrue(match("abc", .like, "a*c"))
        XCTAssertTrue(match("abc", .like, "a?c"))
        XCTAssertTrue(match("abc", .like, "*"))
        XCTAssertTrue(match("abc", .like, "***a**b*c***"))
        XCTAssertTrue(match("abcbc", .like, "*bc"))
        XCTAssertTrue(match("aXbXc", .like, "a*b*c"))
        XCTAssertFalse(match("ac", .like, "a?c"))
        XCTAssertFalse(match("abc", .like, "ab"))
        XCTAssertFalse(match("abc", .like, "bc"))
        XCTAssertFalse(match("ABC", .like, "a*"))
        XCTAssertTrue(match("ABC", .like, "a*", .caseInsensitive))
        XCTAssertTrue(match("Élan", .like, "e?an", cd))
        XCTAssertTrue(match("Straße", .like, "*STRASSE", .caseInsensitive))
        XCTAssertTrue(match("😀x", .like, "?X", .caseInsensitive))
        // Escapes.
        XCTAssertTrue(match("a*c", .like, "a\\*c"))
        XCTAssertFalse(match("abc", .like, "a\\*c"))
        XCTAssertTrue(match("a?c", .like, "a\\?c"))
        XCTAssertFalse(match("abc", .like, "a\\?c"))
        XCTAssertTrue(match("a\\c", .like, "a\\\\c"))
        XCTAssertTrue(match("ab", .like, "\\a\\b"))
        XCTAssertTrue(match("a\\", .like, "a\\"))
        XCTAssertTrue(match("A*", .like, "a\\*", .caseInsensitive))
        XCTAssertTrue(match("É*", .like, "e\\*", cd))
        // Folding never makes a wildcard of text: the mark is folded away after wildcards are found.
        XCTAssertFalse(match("abc", .like, "a*\u{301}", .diacriticInsensitive))
    }

    func testInvalidUTF8DoesNotCrash() {
        let invalid: [[UInt8]] = [
            [0xFF], [0xC3], [0x61, 0xE9, 0x62], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80],
            [0xE2, 0x82], [0x80, 0x80, 0x2A], [0x5C], [0x61, 0x5C, 0xFF], [0x0D, 0xFF, 0x0A],
        ]
        let all: [TextOptions] = [[], .caseInsensitive, .diacriticInsensitive, cd]
        for value in invalid + [[], Array("abc".utf8)] {
            for pattern in invalid + [[], Array("*".utf8), Array("A".utf8)] {
                for options in all {
                    for op in TextMatchOperator.allCases {
                        _ = match(bytes: value, op, pattern, options)
                    }
                }
                for collation in TextCollation.allCases {
                    let forward = compare(collation, value, pattern)
                    XCTAssertEqual(forward.signum(), -compare(collation, pattern, value).signum())
                    XCTAssertEqual(forward == 0, value == pattern)
                }
            }
        }
        XCTAssertTrue(match(bytes: [0x61, 0xFF], .contains, Array("A".utf8), .caseInsensitive))
        XCTAssertTrue(match(bytes: [0x61, 0xFF], .contains, [0xFF], []))
        XCTAssertTrue(match(bytes: [0x61, 0xFF], .like, Array("A?".utf8), .caseInsensitive))
    }

    // MARK: - Named collation cases

    private func compare(_ collation: TextCollation, _ a: [UInt8], _ b: [UInt8]) -> Int32 {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in collation.compare(a, b) } }
    }

    func testCollations() {
        XCTAssertLessThan(TextCollation.binary.compare("B", "a"), 0)
        XCTAssertLessThan(TextCollation.binary.compare("a", "ab"), 0)
        XCTAssertEqual(TextCollation.binary.compare("", ""), 0)
        XCTAssertLessThan(TextCollation.caseInsensitive.compare("a", "B"), 0)
        XCTAssertLessThan(TextCollation.caseInsensitive.compare("B", "c"), 0)
        XCTAssertLessThan(TextCollation.caseInsensitive.compare("ABC", "abc"), 0)
        XCTAssertNotEqual(TextCollation.caseInsensitive.compare("straße", "STRASSE"), 0)
        XCTAssertLessThan(TextCollation.caseInsensitive.compare("ÉCLAIR", "éclairs"), 0)

        let names = ["file10", "File1", "file2", "résumé", "file1", "Resume", "file01", "resume", "a", "B", "file"]
        let sorted = names.sorted { TextCollation.localizedStandard.compare($0, $1) < 0 }
        XCTAssertEqual(sorted, ["a", "B", "file", "file01", "file1", "File1", "file2", "file10", "resume", "Resume", "résumé"])
        XCTAssertLessThan(TextCollation.localizedStandard.compare("x-1", "x1"), 0)
        XCTAssertLessThan(TextCollation.localizedStandard.compare("x1", "xa"), 0)
        XCTAssertLessThan(TextCollation.localizedStandard.compare("v99999999999999999999999", "v100000000000000000000000"), 0)
        XCTAssertNotEqual(TextCollation.localizedStandard.compare("caf\u{E9}", "cafe\u{301}"), 0)
    }

    // MARK: - Generated cases

    /// Pieces random strings are made of: ASCII, wildcards, accents both ways, ß, İ, digits, emoji.
    private static let pieces: [String] = [
        "a", "A", "b", "B", "e", "E", "i", "I", "s", "S", "x", " ", "-", "0", "1", "2", "9", "10", "007",
        "*", "?", "\\", "\r", "\n", "\r\n", "\u{E9}", "e\u{301}", "\u{C9}", "\u{301}", "ß", "SS", "ẞ", "İ", "ı",
        "ﬁ", "Σ", "ς", "σ", "\u{212A}", "Å", "ø", "ᾳ", "한", "😀", "👨‍👩‍👧", "🇫🇷", "❤️", "\u{FFFD}",
    ]
    private static let asciiPieces: [String] = ["a", "A", "b", "B", "c", "x", "X", "1", "0", " ", "*", "?", "\\"]

    private static func randomString(_ rng: inout SeededGenerator, from pieces: [String], maxPieces: Int) -> String {
        let count = Int(rng.next() % UInt64(maxPieces + 1))
        var s = ""
        for _ in 0..<count { s += pieces[Int(rng.next() % UInt64(pieces.count))] }
        return s
    }

    /// A pattern likely to match: a random piece of `value` with its case changed, or a random string.
    private static func randomPattern(_ rng: inout SeededGenerator, value: String, pieces: [String]) -> String {
        let characters = Array(value)
        switch rng.next() % 3 {
        case 0 where !characters.isEmpty:
            let start = Int(rng.next() % UInt64(characters.count))
            let length = Int(rng.next() % UInt64(characters.count - start + 1))
            let piece = String(characters[start..<start + length])
            return rng.next() % 2 == 0 ? piece.uppercased() : piece
        case 1:
            // Keep LIKE interesting: replace random characters with wildcards.
            return String(characters.map { rng.next() % 3 == 0 ? (rng.next() % 2 == 0 ? "*" : "?") : $0 })
        default:
            return randomString(&rng, from: pieces, maxPieces: 4)
        }
    }

    private func makeRNG(_ name: String) -> SeededGenerator {
        SeededGenerator(seed: testSeed(name))
    }

    func testGeneratedMatchingAgreesWithReference() {
        var rng = makeRNG(#function)
        let allOptions: [TextOptions] = [[], .caseInsensitive, .diacriticInsensitive, cd]
        var checked = 0
        for round in 0..<4000 {
            let pieces = round % 2 == 0 ? Self.asciiPieces : Self.pieces
            let value = Self.randomString(&rng, from: pieces, maxPieces: 8)
            let pattern = Self.randomPattern(&rng, value: value, pieces: pieces)
            for options in allOptions {
                for op in TextMatchOperator.allCases {
                    let viaString = match(value, op, pattern, options)
                    let viaBytes = match(bytes: Array(value.utf8), op, Array(pattern.utf8), options)
                    let expected = TextReferenceMatcher.matches(op, value: value, pattern: pattern, options: options)
                    XCTAssertEqual(viaString, viaBytes, "\(op) \(options.rawValue) \(value.debugDescription) \(pattern.debugDescription)")
                    XCTAssertEqual(viaString, expected, "\(op) \(options.rawValue) \(value.debugDescription) \(pattern.debugDescription)")
                    checked += 1
                }
            }
        }
        print("checked \(checked) matches")
    }

    func testGeneratedCollationsAreTotalOrders() {
        var rng = makeRNG(#function)
        var strings: [String] = []
        for index in 0..<160 {
            strings.append(Self.randomString(&rng, from: index % 3 == 0 ? Self.asciiPieces : Self.pieces, maxPieces: 5))
        }
        // Case and accent variants and exact duplicates, to exercise every tie-breaking level.
        strings += strings.prefix(30).map { $0.uppercased() } + strings.prefix(10)
        strings += strings.prefix(20).map { $0.decomposedStringWithCanonicalMapping }
        let arrays = strings.map { Array($0.utf8) }

        for collation in TextCollation.allCases {
            var table = [[Int32]](repeating: [], count: arrays.count)
            for i in arrays.indices {
                table[i] = arrays.map { compare(collation, arrays[i], $0).signum() }
                XCTAssertEqual(compare(collation, arrays[i], arrays[i]), 0)
            }
            for i in arrays.indices {
                for j in arrays.indices {
                    XCTAssertEqual(table[i][j], -table[j][i], "\(collation) antisymmetry \(strings[i].debugDescription) \(strings[j].debugDescription)")
                    XCTAssertEqual(table[i][j] == 0, arrays[i] == arrays[j], "\(collation) zero iff equal bytes")
                    XCTAssertEqual(collation.compare(strings[i], strings[j]).signum(), table[i][j], "\(collation) String path")
                }
            }
            for _ in 0..<20_000 {
                let (a, b, c) = (Int(rng.next() % UInt64(arrays.count)), Int(rng.next() % UInt64(arrays.count)), Int(rng.next() % UInt64(arrays.count)))
                if table[a][b] <= 0 && table[b][c] <= 0 {
                    XCTAssertLessThanOrEqual(table[a][c], 0, "\(collation) transitivity \(strings[a].debugDescription) \(strings[b].debugDescription) \(strings[c].debugDescription)")
                }
            }
            // A sort whose every pair is in order proves a total order on this set; shuffled inputs
            // must all sort to the same sequence.
            let sorted = arrays.indices.sorted { table[$0][$1] < 0 }.map { arrays[$0] }
            for i in sorted.indices {
                for j in sorted.indices where i < j && sorted[i] != sorted[j] {
                    XCTAssertLessThan(compare(collation, sorted[i], sorted[j]), 0, "\(collation) sorted pair")
                }
            }
            for _ in 0..<5 {
                var shuffled = arrays
                shuffled.shuffle(using: &rng)
                XCTAssertEqual(shuffled.sorted { compare(collation, $0, $1) < 0 }, sorted, "\(collation) deterministic sort")
            }
        }
    }

    func testGeneratedCollationFastPathsAgreeWithUnicodePath() {
        var rng = makeRNG(#function)
        let pieces = Self.asciiPieces + ["Z", "z", "9", "10", "00", "-", "\r"]
        for _ in 0..<20_000 {
            let a = Array(Self.randomString(&rng, from: pieces, maxPieces: 6).utf8)
            let b = rng.next() % 4 == 0 ? Array(String(decoding: a, as: UTF8.self).uppercased().utf8)
                : Array(Self.randomString(&rng, from: pieces, maxPieces: 6).utf8)
            for collation in TextCollation.allCases {
                let fast = compare(collation, a, b)
                let slow = a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in collation.compareUnicode(a, b) } }
                XCTAssertEqual(fast.signum(), slow.signum(), "\(collation) \(a) \(b)")
            }
        }
    }

    func testGeneratedCollationsAgreeWithWholeStringReference() {
        var rng = makeRNG(#function)
        let pieces = Self.pieces + ["Z", "z", "00", "0", "-", "É", "é"]
        for _ in 0..<8000 {
            let a = Self.randomString(&rng, from: pieces, maxPieces: 6)
            var b = Self.randomString(&rng, from: pieces, maxPieces: 6)
            switch rng.next() % 4 {
            case 0: b = a.uppercased()
            case 1: b = a.decomposedStringWithCanonicalMapping
            case 2: b = a + b
            default: break
            }
            for collation in TextCollation.allCases {
                XCTAssertEqual(
                    collation.compare(a, b).signum(), ReferenceCollation.compare(collation, a, b),
                    "\(collation) \(a.debugDescription) \(b.debugDescription)")
            }
        }
    }

    func testGeneratedInvalidUTF8() {
        var rng = makeRNG(#function)
        let bytes: [UInt8] = [0x61, 0x41, 0x2A, 0x3F, 0x5C, 0x0D, 0x0A, 0x80, 0xBF, 0xC3, 0xA9, 0xCC, 0x81, 0xE2, 0xF0, 0x9F, 0xFF]
        let allOptions: [TextOptions] = [[], .caseInsensitive, .diacriticInsensitive, cd]
        for _ in 0..<3000 {
            let value = (0..<Int(rng.next() % 9)).map { _ in bytes[Int(rng.next() % UInt64(bytes.count))] }
            let pattern = (0..<Int(rng.next() % 5)).map { _ in bytes[Int(rng.next() % UInt64(bytes.count))] }
            for options in allOptions {
                for op in TextMatchOperator.allCases {
                    let result = match(bytes: value, op, pattern, options)
                    // With options, or for LIKE, invalid bytes behave as their repaired text.
                    if !options.isEmpty || op == .like {
                        let repaired = match(String(decoding: value, as: UTF8.self), op, String(decoding: pattern, as: UTF8.self), options)
                        XCTAssertEqual(result, repaired, "\(op) \(options.rawValue) \(value) \(pattern)")
                    }
                }
            }
        }
    }
}

/// A deliberately plain matcher over arrays of Characters, to check ``TextMatcher``'s fast paths.
private enum TextReferenceMatcher {
    /// A Character as its bytes: folded text is NFD, so equal bytes is canonical equivalence.
    typealias Unit = [UInt8]

    enum Token: Equatable {
        case anyRun, anyOne, literal(Unit)
    }

    static func units(_ s: String) -> [Unit] { s.map { Array($0.utf8) } }

    static func matches(_ op: TextMatchOperator, value: String, pattern: String, options: TextOptions) -> Bool {
        if options.isEmpty && op != .like {
            let v = Array(value.utf8)
            let p = Array(pattern.utf8)
            switch op {
            case .equal: return v == p
            case .beginsWith: return v.starts(with: p)
            case .endsWith: return v.reversed().starts(with: p.reversed())
            default: return p.isEmpty || (0..<v.count).contains { v[$0...].starts(with: p) }
            }
        }
        let v = units(TextFolding.fold(value, options))
        if op == .like { return like(v, tokens(pattern, options)) }
        let p = units(TextFolding.fold(pattern, options))
        switch op {
        case .equal: return v == p
        case .beginsWith: return v.starts(with: p)
        case .endsWith: return v.reversed().starts(with: p.reversed())
        default: return p.isEmpty || (0..<v.count).contains { v[$0...].starts(with: p) }
        }
    }

    static func tokens(_ pattern: String, _ options: TextOptions) -> [Token] {
        var result: [Token] = []
        var characters = Array(pattern)[...]
        while let c = characters.popFirst() {
            switch c {
            case "*": result.append(.anyRun)
            case "?": result.append(.anyOne)
            default:
                var literal = c == "\\" ? (characters.popFirst() ?? "\\") : c
                // Collect the literal run, so it is folded as a whole like the matcher does.
                var run = String(literal)
                while let next = characters.first, next != "*", next != "?" {
                    characters.removeFirst()
                    literal = next == "\\" ? (characters.popFirst() ?? "\\") : next
                    run.append(literal)
                }
                result += units(TextFolding.fold(run, options)).map(Token.literal)
            }
        }
        return result
    }

    /// Dynamic programming: `table[i][j]` says whether `value[i...]` matches `tokens[j...]`.
    static func like(_ value: [Unit], _ tokens: [Token]) -> Bool {
        var table = [[Bool]](repeating: [Bool](repeating: false, count: tokens.count + 1), count: value.count + 1)
        table[value.count][tokens.count] = true
        for i in stride(from: value.count, through: 0, by: -1) {
            for j in stride(from: tokens.count - 1, through: 0, by: -1) {
                switch tokens[j] {
                case .anyRun: table[i][j] = table[i][j + 1] || (i < value.count && table[i + 1][j])
                case .anyOne: table[i][j] = i < value.count && table[i + 1][j + 1]
                case .literal(let unit): table[i][j] = i < value.count && value[i] == unit && table[i + 1][j + 1]
                }
            }
        }
        return table[0][0]
    }
}

/// The collations as documented, on whole folded strings and token arrays, to check the streaming code.
private enum ReferenceCollation {
    enum Token {
        case number(String)
        case character(UInt32)
    }

    static func compare(_ collation: TextCollation, _ a: String, _ b: String) -> Int32 {
        let binary = Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8)) ? -1 : (Array(a.utf8) == Array(b.utf8) ? 0 : 1)
        switch collation {
        case .binary:
            return Int32(binary)
        case .caseInsensitive:
            let x = TextFolding.scalars(of: a, folding: .caseInsensitive)
            let y = TextFolding.scalars(of: b, folding: .caseInsensitive)
            if x != y { return x.lexicographicallyPrecedes(y) ? -1 : 1 }
            return Int32(binary)
        case .localizedStandard:
            let levels: [(TextOptions, Bool)] = [
                ([.caseInsensitive, .diacriticInsensitive], false), (.caseInsensitive, false), ([], true),
            ]
            for (options, caseLevel) in levels {
                let x = tokens(TextFolding.scalars(of: a, folding: options))
                let y = tokens(TextFolding.scalars(of: b, folding: options))
                let order = compareTokens(x, y, caseLevel: caseLevel)
                if order != 0 { return order }
            }
            return Int32(binary)
        }
    }

    static func tokens(_ scalars: [UInt32]) -> [Token] {
        var result: [Token] = []
        var digits = ""
        for value in scalars {
            if (0x30...0x39).contains(value) {
                digits.append(Character(Unicode.Scalar(UInt8(value))))
                continue
            }
            if !digits.isEmpty { result.append(.number(digits)) }
            digits = ""
            result.append(.character(value))
        }
        if !digits.isEmpty { result.append(.number(digits)) }
        return result
    }

    /// Rank of a token: numbers sit where "0" would; the case level puts uppercase after the rest.
    static func rank(_ token: Token, caseLevel: Bool) -> UInt64 {
        switch token {
        case .number: return 0x30
        case .character(let value):
            let upper = caseLevel && (Unicode.Scalar(value)?.properties.isUppercase ?? false)
            return (upper ? 1 << 32 : 0) | UInt64(value)
        }
    }

    static func compareTokens(_ x: [Token], _ y: [Token], caseLevel: Bool) -> Int32 {
        for (p, q) in zip(x, y) {
            if case .number(let m) = p, case .number(let n) = q {
                let m = m.drop { $0 == "0" }
                let n = n.drop { $0 == "0" }
                if m.count != n.count { return m.count < n.count ? -1 : 1 }
                if m != n { return m < n ? -1 : 1 }
                continue
            }
            let (r, s) = (rank(p, caseLevel: caseLevel), rank(q, caseLevel: caseLevel))
            if r != s { return r < s ? -1 : 1 }
        }
        return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
    }
}
