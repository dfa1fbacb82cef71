import Foundation

/// Folds strings for `[c]` and `[d]` comparisons, the same way for SQL functions and in memory.
///
/// Every comparison of text under options goes through ``fold(_:_:)`` (or ``scalars(of:folding:)``),
/// so a predicate evaluated by SQLite and the same predicate evaluated on objects in memory see
/// identical folded text.
///
/// The decisions, in order of application when any option is set:
///
/// 1. **Canonical normalization.** The text is decomposed (NFD), so precomposed "é" (U+00E9) and
///    decomposed "e" + U+0301 compare equal. The result of folding is always in NFD, which is unique:
///    two folded strings are canonically equivalent exactly when their bytes are equal.
/// 2. **Diacritic folding (`[d]`).** After decomposition, nonspacing combining marks (general
///    category Mn) are dropped: "é" → "e", "İ" (I + U+0307) → "I", "ᾳ" → "α". Letters whose
///    "diacritic" is not a separate mark in Unicode ("ø", "ł", "đ") are left alone, as NFD leaves them.
///    Marks are dropped before case mapping, so a mark that case mapping would turn into a letter
///    (U+0345 YPOGEGRAMMENI uppercases to Ι) counts as the diacritic it is.
/// 3. **Case folding (`[c]`).** Each scalar is mapped to the lowercase of its full uppercase mapping,
///    scalar by scalar and without context, again until it no longer changes ("ẞ" → "ß" → "ss").
///    This is full Unicode case folding in effect: "ß" → "ss",
///    "ﬁ" → "fi", "K" (Kelvin) → "k", "ς" and "Σ" → "σ", "İ" → "i" + U+0307. Context-free on purpose:
///    a contextual mapping (final sigma) would fold a pattern differently from the same text inside
///    a longer value. The result is decomposed again, and with `[d]` stripped of marks again, because
///    case mappings can yield precomposed letters or new marks.
///
/// Without options ``fold(_:_:)`` changes nothing, not even normalization: comparison is exact,
/// byte for byte, as in SQL's `=`. No locale is involved anywhere (no Turkish dotless-i rule), so
/// results never depend on the device's settings.
///
/// Speed: ``FoldedScalars`` folds lazily, one canonical segment at a time, so collations stop at
/// the first difference. ASCII bytes are folded inline; two-byte scalars (Latin, Greek, Cyrillic...)
/// through a table of precomputed folds; anything else through a per-scalar decomposition table plus
/// canonical reordering (the NFD algorithm itself) and a per-scalar case table. The tables are built
/// once, on first use of non-ASCII text (tens of milliseconds), from Foundation's NFD and the standard
/// library's case mappings: they cache the definitions above, they do not redefine them. Calling
/// Foundation for every string cost microseconds per comparison, far too slow for sorting.
package enum TextFolding {
    /// Returns `s` folded according to `options`; `s` itself when `options` is empty.
    ///
    /// ```swift
    /// TextFolding.fold("ÉCLAIR", [.caseInsensitive, .diacriticInsensitive]) // "eclair"
    /// TextFolding.fold("Straße", .caseInsensitive)                           // "strasse"
    /// ```
    package static func fold(_ s: String, _ options: TextOptions) -> String {
        if options.isEmpty { return s }
        // ASCII is already in NFD and has no marks; only case may change.
        if isASCII(s) {
            return options.contains(.caseInsensitive) ? asciiLowercased(s) : s
        }
        return string(fromScalars: scalars(of: s, folding: options))
    }

    /// Returns `s` folded according to `options`, then recomposed (NFC): what a regular
    /// expression is matched against. ICU's regular expressions do not see canonical
    /// equivalence, and patterns are written composed ("é" one character, as in `[é]` or `é+`).
    ///
    /// ```swift
    /// TextFolding.foldComposed("STRAẞE", .caseInsensitive)   // "strasse"
    /// TextFolding.foldComposed("CAFÉ", .caseInsensitive)     // "café", é composed
    /// ```
    package static func foldComposed(_ s: String, _ options: TextOptions) -> String {
        if options.isEmpty { return s }
        if isASCII(s) { return fold(s, options) }
        return fold(s, options).precomposedStringWithCanonicalMapping
    }

    /// Returns `s` in canonical decomposition (NFD), with case and diacritics untouched.
    ///
    /// Used by collations to order case and diacritic variants without folding them away.
    static func normalized(_ s: String) -> String {
        isASCII(s) ? s : string(fromScalars: scalars(of: s, folding: []))
    }

    /// The scalar values of `s` in NFD, folded by `options` (only normalized when `options` is empty).
    static func scalars(of s: String, folding options: TextOptions) -> [UInt32] {
        var s = s
        return s.withUTF8 { bytes in
            var iterator = FoldedScalars(bytes, options)
            var result: [UInt32] = []
            result.reserveCapacity(bytes.count)
            while let value = iterator.next() { result.append(value) }
            return result
        }
    }

    // MARK: - Byte and ASCII helpers

    /// Lowercases one ASCII byte; other bytes pass through unchanged.
    @inline(__always)
    static func asciiLower(_ byte: UInt8) -> UInt8 {
        // One unsigned comparison covers "A"..."Z"; the branch compiles to a conditional move.
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    /// Whether every byte of the buffer is ASCII.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var accumulated: UInt8 = 0
        for byte in bytes { accumulated |= byte }
        return accumulated < 0x80
    }

    /// Whether every scalar of the string is ASCII.
    static func isASCII(_ s: String) -> Bool {
        s.utf8.allSatisfy { $0 < 0x80 }
    }

    /// Lowercases the ASCII letters of an all-ASCII string.
    private static func asciiLowercased(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 &- 0x41 < 26 }) else { return s }
        return String(decoding: s.utf8.map(asciiLower), as: UTF8.self)
    }

    /// A string from scalar values, encoded directly (values come from strings, so are valid;
    /// a stray surrogate would be repaired by the decoding).
    static func string(fromScalars values: [UInt32]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count + values.count / 2)
        for value in values {
            switch value {
            case ..<0x80:
                bytes.append(UInt8(truncatingIfNeeded: value))
            case ..<0x800:
                bytes.append(0xC0 | UInt8(truncatingIfNeeded: value >> 6))
                bytes.append(0x80 | UInt8(truncatingIfNeeded: value & 0x3F))
            case ..<0x10000:
                bytes.append(0xE0 | UInt8(truncatingIfNeeded: value >> 12))
                bytes.append(0x80 | UInt8(truncatingIfNeeded: (value >> 6) & 0x3F))
                bytes.append(0x80 | UInt8(truncatingIfNeeded: value & 0x3F))
            default:
                bytes.append(0xF0 | UInt8(truncatingIfNeeded: value >> 18))
                bytes.append(0x80 | UInt8(truncatingIfNeeded: (value >> 12) & 0x3F))
                bytes.append(0x80 | UInt8(truncatingIfNeeded: (value >> 6) & 0x3F))
                bytes.append(0x80 | UInt8(truncatingIfNeeded: value & 0x3F))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Normalization

    /// Whether the scalar is a nonspacing combining mark, the class `[d]` ignores.
    @inline(__always)
    static func isNonspacingMark(_ value: UInt32) -> Bool {
        // U+0300 is the first mark of any kind; below it no property lookup is needed.
        guard value >= 0x300, let scalar = Unicode.Scalar(value) else { return false }
        return scalar.properties.generalCategory == .nonspacingMark
    }

    /// The canonical combining class, which orders marks in NFD; 0 for starters.
    @inline(__always)
    static func combiningClass(_ value: UInt32) -> UInt8 {
        guard value >= 0x300, let scalar = Unicode.Scalar(value) else { return 0 }
        return scalar.properties.canonicalCombiningClass.rawValue
    }

    /// Appends the full canonical decomposition of one scalar.
    @inline(__always)
    static func appendDecomposition(of value: UInt32, to result: inout [UInt32]) {
        // U+00C0 "À" is the first scalar with a decomposition.
        if value < 0xC0 {
            result.append(value)
            return
        }
        // Hangul syllables decompose by arithmetic (Unicode §3.12) instead of a table.
        let syllable = value &- 0xAC00
        if syllable < 11_172 {
            result.append(0x1100 + syllable / 588)
            result.append(0x1161 + (syllable % 588) / 28)
            if syllable % 28 != 0 { result.append(0x11A7 + syllable % 28) }
            return
        }
        if let range = DecompositionTable.shared.index[value] {
            result.append(contentsOf: DecompositionTable.shared.storage[range])
        } else {
            result.append(value)
        }
    }

    /// Folds decomposed scalars (one or more whole segments) and appends them to `output`.
    ///
    /// This is steps 1–3 of the type's documentation, after per-scalar decomposition: canonical
    /// ordering, dropping marks, case mapping, and normalizing again after case mapping.
    static func foldSegment(
        _ segment: [UInt32],
        caseInsensitive: Bool,
        dropMarks: Bool,
        scratch: inout [UInt32],
        into output: inout [UInt32]
    ) {
        let start = output.count
        output.append(contentsOf: segment)
        orderAndStrip(&output, from: start, dropMarks: dropMarks)
        guard caseInsensitive else { return }
        if !scratch.isEmpty { scratch.removeAll(keepingCapacity: true) }
        var renormalize = false
        for value in output[start...] {
            if value < 0x80 {
                scratch.append(UInt32(asciiLower(UInt8(truncatingIfNeeded: value))))
            } else if appendCaseFolding(of: value, to: &scratch) {
                renormalize = true
            }
        }
        output.removeSubrange(start...)
        guard renormalize else {
            output.append(contentsOf: scratch)
            return
        }
        // Case mappings are not closed under NFD (and may yield marks): normalize once more.
        for value in scratch { appendDecomposition(of: value, to: &output) }
        orderAndStrip(&output, from: start, dropMarks: dropMarks)
    }

    /// Puts the decomposed scalars of `values[start...]` in canonical order (completing NFD) and
    /// drops their nonspacing marks if asked.
    private static func orderAndStrip(_ values: inout [UInt32], from start: Int, dropMarks: Bool) {
        var runStart = start
        while runStart < values.count {
            guard combiningClass(values[runStart]) != 0 else {
                runStart += 1
                continue
            }
            var runEnd = runStart + 1
            while runEnd < values.count && combiningClass(values[runEnd]) != 0 { runEnd += 1 }
            // A run of marks: a stable insertion sort by combining class (runs are short).
            if runEnd - runStart > 1 {
                for i in (runStart + 1)..<runEnd {
                    let moving = values[i]
                    let movingClass = combiningClass(moving)
                    var j = i
                    while j > runStart && combiningClass(values[j - 1]) > movingClass {
                        values[j] = values[j - 1]
                        j -= 1
                    }
                    values[j] = moving
                }
            }
            runStart = runEnd
        }
        guard dropMarks else { return }
        var kept = start
        for index in start..<values.count where !isNonspacingMark(values[index]) {
            values[kept] = values[index]
            kept += 1
        }
        values.removeLast(values.count - kept)
    }

    /// Appends the case folding of a non-ASCII scalar; returns whether it differs from the scalar.
    @inline(__always)
    private static func appendCaseFolding(of value: UInt32, to result: inout [UInt32]) -> Bool {
        if value < CaseTable.limit {
            guard let range = CaseTable.shared.index[value] else {
                result.append(value)
                return false
            }
            result.append(contentsOf: CaseTable.shared.storage[range])
            return true
        }
        // Above the table (no cased scripts there today): compute, by the same rule.
        guard let scalar = Unicode.Scalar(value), let folded = CaseTable.folding(of: scalar) else {
            result.append(value)
            return false
        }
        result.append(contentsOf: folded)
        return true
    }
}
