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
///    scalar by scalar and without context. This is full Unicode case folding in effect: "ß" → "ss",
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

/// The folded NFD scalars of UTF-8 text, produced only as far as they are read.
///
/// This is the one implementation of folding: ``TextFolding/scalars(of:folding:)`` drains it, and
/// collations read it lazily, so comparing two long strings that differ early folds only their
/// beginnings. Text is processed one canonical segment at a time (a starter and the marks after
/// it): NFD only reorders marks within a segment, and case and mark folding work scalar by scalar,
/// so folding segment by segment gives the same result as folding the whole string.
///
/// Fast paths, taken when the next scalar is known to start a new segment (it is ASCII, or a
/// two-byte scalar whose decomposition starts with a starter): an ASCII byte is handed out
/// directly, and a two-byte scalar (Latin, Greek, Cyrillic, Hebrew, Arabic...) from a table of
/// precomputed folds. ASCII text never allocates. Invalid UTF-8 is decoded with U+FFFD for each
/// maximal invalid subsequence, as `String(decoding:as:)` does.
struct FoldedScalars: IteratorProtocol {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private let caseInsensitive: Bool
    private let dropMarks: Bool
    /// Which column of ``SegmentTable`` holds folds for these options.
    private let tableColumn: Int
    /// A precomputed fold being handed out: `SegmentTable.shared.storage[tableCursor..<tableEnd]`.
    private var tableCursor = 0
    private var tableEnd = 0
    /// Folded scalars being handed out, from `outputIndex` on.
    private var output: [UInt32] = []
    private var outputIndex = 0
    /// The decomposed scalars of the segment still open: marks may yet follow.
    private var pending: [UInt32] = []
    /// One scalar's decomposition, on its way to `pending`.
    private var decomposed: [UInt32] = []
    private var scratch: [UInt32] = []

    /// Reads `bytes`, which must stay valid while the iterator is used.
    init(_ bytes: UnsafeBufferPointer<UInt8>, _ options: TextOptions) {
        self.bytes = bytes
        caseInsensitive = options.contains(.caseInsensitive)
        dropMarks = options.contains(.diacriticInsensitive)
        tableColumn = (caseInsensitive ? 1 : 0) | (dropMarks ? 2 : 0)
    }

    mutating func next() -> UInt32? {
        while true {
            if tableCursor < tableEnd {
                tableCursor &+= 1
                return SegmentTable.shared.storage[tableCursor &- 1]
            }
            if outputIndex < output.count {
                outputIndex &+= 1
                return output[outputIndex &- 1]
            }
            if !output.isEmpty {
                output.removeAll(keepingCapacity: true)
                outputIndex = 0
            }
            guard position < bytes.count else {
                if pending.isEmpty { return nil }
                flush()
                continue
            }
            let byte = bytes[position]
            if !pending.isEmpty {
                if startsSegment(at: position) {
                    flush()
                    continue
                }
            } else if byte < 0x80 {
                if startsSegment(at: position &+ 1) {
                    position &+= 1
                    return UInt32(caseInsensitive ? TextFolding.asciiLower(byte) : byte)
                }
            } else if let scalar = twoByteScalar(at: position), SegmentTable.startsWithStarter(scalar),
                      startsSegment(at: position &+ 2) {
                position &+= 2
                let range = SegmentTable.shared.range(of: scalar, column: tableColumn)
                tableCursor = range.lowerBound
                tableEnd = range.upperBound
                continue
            }
            readScalar()
        }
    }

    /// Reads one scalar into the open segment, closing the segment first if it is a starter.
    private mutating func readScalar() {
        guard let scalar = decodeScalar() else {
            position = bytes.count
            return
        }
        if !decomposed.isEmpty { decomposed.removeAll(keepingCapacity: true) }
        TextFolding.appendDecomposition(of: scalar, to: &decomposed)
        for value in decomposed {
            // A starter closes the open segment: nothing after it can reorder into it.
            if !pending.isEmpty && TextFolding.combiningClass(value) == 0 { flush() }
            pending.append(value)
        }
    }

    /// Whether the text at `index` is the end or a scalar known to start a new segment.
    @inline(__always)
    private func startsSegment(at index: Int) -> Bool {
        guard index < bytes.count else { return true }
        if bytes[index] < 0x80 { return true }
        guard let scalar = twoByteScalar(at: index) else { return false }
        return SegmentTable.startsWithStarter(scalar)
    }

    /// The valid two-byte UTF-8 scalar at `index`, if there is one.
    @inline(__always)
    private func twoByteScalar(at index: Int) -> UInt32? {
        let lead = bytes[index]
        guard lead &- 0xC2 < 30, index &+ 1 < bytes.count else { return nil }
        let trail = bytes[index &+ 1]
        guard trail & 0xC0 == 0x80 else { return nil }
        return UInt32(lead & 0x1F) << 6 | UInt32(trail & 0x3F)
    }

    /// Folds the open segment into `output`.
    private mutating func flush() {
        TextFolding.foldSegment(
            pending, caseInsensitive: caseInsensitive, dropMarks: dropMarks, scratch: &scratch, into: &output)
        pending.removeAll(keepingCapacity: true)
    }

    /// Decodes the scalar at `position` and moves past it; U+FFFD for invalid bytes, nil at the end.
    private mutating func decodeScalar() -> UInt32? {
        var iterator = bytes[position...].makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        switch parser.parseScalar(from: &iterator) {
        case .valid(let encoded):
            position += encoded.count
            return Unicode.UTF8.decode(encoded).value
        case .error(let length):
            position += max(length, 1)
            return 0xFFFD
        case .emptyInput:
            return nil
        }
    }
}

/// Precomputed folds of the two-byte UTF-8 scalars (U+0080–U+07FF), for each of the four option
/// sets, so that Latin, Greek and Cyrillic letters fold with one table look-up.
private struct SegmentTable: Sendable {
    static let first: UInt32 = 0x80
    static let end: UInt32 = 0x800
    private static let size = Int(end - first)

    /// Per column and scalar: the fold's offset in ``storage`` << 8 | its length.
    private var entries: [UInt32]
    /// Per scalar: whether its decomposition starts with a starter, so that it starts a segment.
    private var starters: [Bool]
    /// All folds, one after the other.
    private(set) var storage: [UInt32] = []

    static let shared = SegmentTable()

    private init() {
        entries = [UInt32](repeating: 0, count: 4 * Self.size)
        starters = [Bool](repeating: false, count: Self.size)
        var decomposed: [UInt32] = []
        var folded: [UInt32] = []
        var scratch: [UInt32] = []
        for index in 0..<Self.size {
            let value = Self.first + UInt32(index)
            decomposed.removeAll(keepingCapacity: true)
            TextFolding.appendDecomposition(of: value, to: &decomposed)
            var usable = decomposed.first.map { TextFolding.combiningClass($0) == 0 } ?? false
            for column in 0..<4 {
                folded.removeAll(keepingCapacity: true)
                TextFolding.foldSegment(
                    decomposed, caseInsensitive: column & 1 != 0, dropMarks: column & 2 != 0,
                    scratch: &scratch, into: &folded)
                usable = usable && folded.count < 256
                entries[column * Self.size + index] = UInt32(storage.count) << 8 | UInt32(folded.count & 0xFF)
                storage.append(contentsOf: folded)
            }
            starters[index] = usable
        }
    }

    /// Whether a two-byte scalar's decomposition starts with a starter (and it is in the table).
    @inline(__always)
    static func startsWithStarter(_ value: UInt32) -> Bool {
        let index = Int(value &- first)
        return index >= 0 && index < size && shared.starters[index]
    }

    /// The range in ``storage`` of the fold of a two-byte scalar in a column.
    @inline(__always)
    func range(of value: UInt32, column: Int) -> Range<Int> {
        let entry = entries[column * Self.size + Int(value &- Self.first)]
        let offset = Int(entry >> 8)
        return offset..<(offset + Int(entry & 0xFF))
    }
}

/// Full canonical decompositions of every scalar that has one, except Hangul syllables.
///
/// Built once from Foundation's NFD: one string of all candidate scalars, each followed by a
/// separator that is a starter without decomposition, so that NFD cannot reorder across it and each
/// segment of the result is one scalar's decomposition.
private struct DecompositionTable: Sendable {
    /// Where each decomposition is in ``storage``.
    var index: [UInt32: Range<Int>] = [:]
    /// All decompositions, one after the other.
    var storage: [UInt32] = []

    static let shared = DecompositionTable()

    private init() {
        let separator = Unicode.Scalar(UInt8(0x01))
        var sources: [UInt32] = []
        var text = String.UnicodeScalarView()
        // U+2FA1D, the last CJK compatibility ideograph, is the last scalar with a decomposition.
        for value in UInt32(0xC0)..<0x2FA20 where !(0xAC00...0xD7A3).contains(value) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            switch scalar.properties.generalCategory {
            case .unassigned, .privateUse, .surrogate: continue
            default: break
            }
            // Unified ideographs have no decomposition; skipping them halves the work.
            if scalar.properties.isUnifiedIdeograph { continue }
            sources.append(value)
            text.append(scalar)
            text.append(separator)
        }
        var segment: [UInt32] = []
        var next = 0
        for scalar in String(text).decomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar != separator {
                segment.append(scalar.value)
                continue
            }
            guard next < sources.count else { break }
            add(sources[next], segment)
            segment.removeAll(keepingCapacity: true)
            next += 1
        }
        if next == sources.count && segment.isEmpty { return }
        // Not one segment per scalar (never seen): decompose each scalar on its own instead.
        index = [:]
        storage = []
        for value in sources {
            guard let scalar = Unicode.Scalar(value) else { continue }
            add(value, String(Character(scalar)).decomposedStringWithCanonicalMapping.unicodeScalars.map(\.value))
        }
    }

    private mutating func add(_ value: UInt32, _ decomposition: [UInt32]) {
        guard decomposition != [value], !decomposition.isEmpty else { return }
        index[value] = storage.count..<(storage.count + decomposition.count)
        storage.append(contentsOf: decomposition)
    }
}

/// The case folding (lowercase of the full uppercase mapping) of every non-ASCII scalar it changes.
private struct CaseTable: Sendable {
    /// The table covers scalars below this; all cased scripts are below it.
    static let limit: UInt32 = 0x20000

    /// Where each folding is in ``storage``.
    var index: [UInt32: Range<Int>] = [:]
    /// All foldings, one after the other.
    var storage: [UInt32] = []

    static let shared = CaseTable()

    private init() {
        for value in UInt32(0x80)..<Self.limit {
            guard let scalar = Unicode.Scalar(value), let folded = Self.folding(of: scalar) else { continue }
            index[value] = storage.count..<(storage.count + folded.count)
            storage.append(contentsOf: folded)
        }
    }

    /// The lowercase of the full uppercase mapping of `scalar`, nil if that is the scalar itself.
    static func folding(of scalar: Unicode.Scalar) -> [UInt32]? {
        guard scalar.properties.changesWhenCaseMapped else { return nil }
        var folded: [UInt32] = []
        for upper in scalar.properties.uppercaseMapping.unicodeScalars {
            folded.append(contentsOf: upper.properties.lowercaseMapping.unicodeScalars.map(\.value))
        }
        return folded == [scalar.value] || folded.isEmpty ? nil : folded
    }
}

