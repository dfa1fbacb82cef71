@testable import tasks
import XCTest

/// The app's terminal width function: wide and fullwidth characters and emoji take 2 columns,
/// combining marks 0, everything else 1.
final class DisplayWidthTests: XCTestCase {
    func testASCIIAndLatinTakeOneColumnEach() {
        XCTAssertEqual(DisplayWidth.of(""), 0)
        XCTAssertEqual(DisplayWidth.of("Buy milk"), 8)
        XCTAssertEqual(DisplayWidth.of("Crème brûlée"), 12)
        XCTAssertEqual(DisplayWidth.of("Ωμέγα Привет"), 12)
    }

    func testEastAsianWideAndFullwidthTakeTwo() {
        XCTAssertEqual(DisplayWidth.of("牛乳を買う"), 10)       // CJK ideographs and hiragana
        XCTAssertEqual(DisplayWidth.of("カタカナ"), 8)
        XCTAssertEqual(DisplayWidth.of("한국어"), 6)             // precomposed Hangul
        XCTAssertEqual(DisplayWidth.of("ＡＢＣ１"), 8)            // fullwidth forms
        XCTAssertEqual(DisplayWidth.of("ｶﾀｶﾅ"), 4)              // halfwidth katakana stay narrow
        XCTAssertEqual(DisplayWidth.of("a、b。"), 6)             // CJK punctuation
        XCTAssertEqual(DisplayWidth.of("\u{20000}"), 2)         // CJK extension B, plane 2
    }

    func testCombiningMarksTakeNone() {
        XCTAssertEqual(DisplayWidth.of("Cafe\u{301}"), 4)
        XCTAssertEqual(DisplayWidth.of("e\u{301}\u{323}\u{308}"), 1)
        XCTAssertEqual(DisplayWidth.of("\u{1100}\u{1161}\u{11A8}"), 2, "a Hangul syllable written as jamo")
        XCTAssertEqual(DisplayWidth.of("a\u{200B}b"), 2, "a zero-width space")
        XCTAssertEqual(DisplayWidth.of("\u{20DD}"), 0, "an enclosing mark alone")
    }

    func testEmojiTakeTwo() {
        XCTAssertEqual(DisplayWidth.of("🎉"), 2)
        XCTAssertEqual(DisplayWidth.of("Party 🎉"), 8)
        XCTAssertEqual(DisplayWidth.of("👍🏽"), 2, "with a skin tone")
        XCTAssertEqual(DisplayWidth.of("👩‍👩‍👧"), 2, "a family joined by U+200D")
        XCTAssertEqual(DisplayWidth.of("🇫🇷"), 2, "a flag")
        XCTAssertEqual(DisplayWidth.of("❤"), 1, "text presentation by default")
        XCTAssertEqual(DisplayWidth.of("❤\u{FE0F}"), 2, "emoji presentation asked for")
        XCTAssertEqual(DisplayWidth.of("1\u{FE0F}\u{20E3}"), 2, "a keycap")
        XCTAssertEqual(DisplayWidth.of("⌚"), 2)
    }

    func testControlCharactersTakeNoneAndAreEscapedFirst() {
        XCTAssertEqual(DisplayWidth.of("\u{1B}"), 0)
        XCTAssertEqual(DisplayWidth.of("\u{9B}"), 0)
        XCTAssertEqual(TerminalText.visible("a\u{1B}[2Jb\u{7}\u{0}\u{9B}\u{7F}"), "a\\u{1B}[2Jb\\u{07}\\u{00}\\u{9B}\\u{7F}")
        XCTAssertEqual(DisplayWidth.of(TerminalText.visible("a\u{1B}b")), 8)
        XCTAssertEqual(TerminalText.visible("C:\\tasks ünïcödé 🎉"), "C:\\tasks ünïcödé 🎉", "nothing else changes")
    }
}
