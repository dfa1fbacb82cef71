/// How many terminal columns text takes, so that columns line up whatever the script: East
/// Asian Wide and Fullwidth characters and emoji take 2, combining marks and other zero-width
/// characters 0, everything else 1.
///
/// ```swift
/// DisplayWidth.of("Buy milk")   // 8
/// DisplayWidth.of("牛乳を買う")    // 10
/// DisplayWidth.of("Cafe\u{301} 🎉")   // 7: the accent is a combining mark, the emoji wide
/// ```
///
/// Width is counted per grapheme cluster (what a person sees as one character): the widest of
/// its scalars, so a base letter with accents takes 1, a Hangul syllable written as jamo 2, and
/// an emoji sequence (a flag, a family joined by U+200D) 2. A text-style character followed by
/// the emoji variation selector U+FE0F takes 2. Control characters take 0: escape them first
/// (``TerminalText/visible(_:)``).
enum DisplayWidth {
    /// The columns `text` takes on a terminal.
    static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The columns one grapheme cluster takes: 0, 1 or 2.
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        // ASCII is most text: answer it without a table look-up.
        if let first = scalars.first, scalars.count == 1, first.isASCII {
            return first.value < 0x20 || first.value == 0x7F ? 0 : 1
        }
        if scalars.contains(where: { $0.value == 0xFE0F }), scalars.first?.properties.isEmoji == true {
            return 2
        }
        return scalars.reduce(0) { max($0, of($1)) }
    }

    /// The columns one scalar takes on its own: 0, 1 or 2.
    static func of(_ scalar: Unicode.Scalar) -> Int {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control, .nonspacingMark, .enclosingMark:
            return 0
        case .format where scalar.value != 0xAD:   // a soft hyphen shows where it breaks a line
            return 0
        default:
            break
        }
        // Hangul vowel and final-consonant jamo join the initial consonant's two columns.
        if (0x1160...0x11FF).contains(scalar.value) || (0xD7B0...0xD7FF).contains(scalar.value) { return 0 }
        if properties.isEmojiPresentation || isWide(scalar.value) { return 2 }
        return 1
    }

    /// Whether a code point is East Asian Wide (W) or Fullwidth (F).
    static func isWide(_ value: UInt32) -> Bool {
        // Binary search over sorted, disjoint ranges.
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// The code points EastAsianWidth.txt marks W or F (Unicode 14, assigned characters;
    /// ranges joined across unassigned gaps, and the whole of planes 2 and 3), sorted.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55, 0x2E80...0x303E,
        0x3041...0x3247, 0x3250...0x4DBF, 0x4E00...0xA4C6, 0xA960...0xA97C, 0xAC00...0xD7A3, 0xF900...0xFAD9,
        0xFE10...0xFE19, 0xFE30...0xFE6B, 0xFF01...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x1B2FB,
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F320,
        0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3,
        0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440, 0x1F442...0x1F4FC,
        0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A, 0x1F595...0x1F596,
        0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2,
        0x1F6D5...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7F0, 0x1F90C...0x1F93A,
        0x1F93C...0x1F945, 0x1F947...0x1F9FF, 0x1FA70...0x1FAF6, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
