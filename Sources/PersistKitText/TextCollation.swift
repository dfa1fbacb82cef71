/// A string order shared by SQL `ORDER BY` (as a registered collation) and in-memory sorting.
///
/// Every case is a strict total order on byte strings: antisymmetric, transitive, and returning 0
/// only for identical bytes. That is what lets SQLite and Swift's sort produce the very same order,
/// ties included, whatever the data. Each order is built as a chain of levels, each level a total
/// preorder computed from a function of the text, and the last level is ``binary``, which separates
/// everything the levels before it consider equal.
///
/// - ``binary``: SQLite's `BINARY`: `memcmp` over the common length, then the shorter first.
/// - ``caseInsensitive``: the case-folded text (``TextFolding/fold(_:_:)`` with `[c]`, in NFD)
///   compared by bytes, which is code point order; ties broken by ``binary``.
/// - ``localizedStandard``: a Finder-like order. Text is split into tokens: each run of ASCII digits
///   is one number token, every other Unicode scalar one character token. Numbers compare by value
///   ("file2" < "file10", leading zeros ignored) and sort where the digits would ("-" < "2" < "a");
///   characters compare by code point. Levels: tokens of the `[cd]`-folded text; then tokens of the
///   `[c]`-folded text (unaccented first: "resume" < "résumé"); then tokens of the NFD text, with
///   lowercase before uppercase ("file" < "File"); then ``binary`` ("02" < "2").
///   It is not a locale's collation (no alphabet-specific rules); it is deterministic and the same
///   on every device.
///
/// When both strings are ASCII, each order is computed on the bytes directly, without allocating;
/// for ASCII this is exactly what the Unicode path computes. Otherwise folded text is read lazily
/// through ``FoldedScalars``, so two strings that differ early are compared after folding only their
/// beginnings, and the later levels are computed only for strings equal at the earlier ones.
package enum TextCollation: Sendable, Hashable, CaseIterable {
    /// Byte order, as SQLite's `BINARY`.
    case binary
    /// Case-insensitive order, ties broken by byte order.
    case caseInsensitive
    /// Finder-like order: case- and diacritic-insensitive first, numbers by value.
    case localizedStandard

    /// Compares two UTF-8 strings: negative if `a` sorts first, 0 only if the bytes are identical.
    ///
    /// The buffers are not NUL-terminated and may be empty with a `nil` base address; invalid UTF-8
    /// is ordered by its repaired text, then by its bytes.
    package func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int32 {
        switch self {
        case .binary:
            return Self.binaryCompare(a, b)
        case .caseInsensitive:
            if TextFolding.isASCII(a) && TextFolding.isASCII(b) {
                return Self.asciiCaseInsensitiveCompare(a, b)
            }
            return compareUnicode(a, b)
        case .localizedStandard:
            if TextFolding.isASCII(a) && TextFolding.isASCII(b) {
                let primary = Self.compareTokens(
                    ASCIIScalars(a, lowercased: true), ASCIIScalars(b, lowercased: true), key: Self.identityKey)
                if primary != 0 { return primary }
                // For ASCII the `[c]` level equals the `[cd]` level: go on to the case level.
                let tertiary = Self.compareTokens(
                    ASCIIScalars(a, lowercased: false), ASCIIScalars(b, lowercased: false), key: Self.caseKey)
                if tertiary != 0 { return tertiary }
                return Self.binaryCompare(a, b)
            }
            return compareUnicode(a, b)
        }
    }

    /// Compares two strings; the same code as the buffer entry point.
    ///
    /// ```swift
    /// TextCollation.localizedStandard.compare("file2", "file10") < 0 // true
    /// ```
    package func compare(_ a: String, _ b: String) -> Int32 {
        var a = a
        var b = b
        return a.withUTF8 { aBytes in
            b.withUTF8 { bBytes in compare(aBytes, bBytes) }
        }
    }

    /// The Unicode path, the definition of the order, which the ASCII paths reproduce.
    ///
    /// Folded text is read lazily, so strings that differ early are compared after folding only
    /// their beginnings.
    func compareUnicode(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int32 {
        switch self {
        case .binary:
            return Self.binaryCompare(a, b)
        case .caseInsensitive:
            var x = FoldedScalars(a, .caseInsensitive)
            var y = FoldedScalars(b, .caseInsensitive)
            // Scalar order of the folded text, which is the byte order of its UTF-8.
            while true {
                switch (x.next(), y.next()) {
                case (nil, nil): return Self.binaryCompare(a, b)
                case (nil, _): return -1
                case (_, nil): return 1
                case let (p?, q?): if p != q { return p < q ? -1 : 1 }
                }
            }
        case .localizedStandard:
            let primary = Self.compareTokens(
                FoldedScalars(a, [.caseInsensitive, .diacriticInsensitive]),
                FoldedScalars(b, [.caseInsensitive, .diacriticInsensitive]), key: Self.identityKey)
            if primary != 0 { return primary }
            let secondary = Self.compareTokens(
                FoldedScalars(a, .caseInsensitive), FoldedScalars(b, .caseInsensitive), key: Self.identityKey)
            if secondary != 0 { return secondary }
            let tertiary = Self.compareTokens(FoldedScalars(a, []), FoldedScalars(b, []), key: Self.caseKey)
            if tertiary != 0 { return tertiary }
            return Self.binaryCompare(a, b)
        }
    }

    // MARK: - Levels

    /// SQLite's BINARY collation: byte order over the common length, then length.
    static func binaryCompare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int32 {
        let common = min(a.count, b.count)
        var i = 0
        while i < common {
            let x = a[i]
            let y = b[i]
            if x != y { return x < y ? -1 : 1 }
            i &+= 1
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    /// `caseInsensitive` for two ASCII strings: lowercased bytes, then raw bytes, in one pass.
    private static func asciiCaseInsensitiveCompare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int32 {
        let common = min(a.count, b.count)
        var tieBreak: Int32 = 0
        var i = 0
        while i < common {
            let x = a[i]
            let y = b[i]
            if x != y {
                let lx = TextFolding.asciiLower(x)
                let ly = TextFolding.asciiLower(y)
                if lx != ly { return lx < ly ? -1 : 1 }
                if tieBreak == 0 { tieBreak = x < y ? -1 : 1 }
            }
            i &+= 1
        }
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        return tieBreak
    }

    /// Key of a character token at a level that compares code points as they are.
    @inline(__always)
    private static func identityKey(_ scalar: UInt32) -> UInt64 {
        UInt64(scalar)
    }

    /// Key of a character token at the case level: lowercase (and uncased) before uppercase.
    @inline(__always)
    private static func caseKey(_ scalar: UInt32) -> UInt64 {
        let upper: Bool
        if scalar < 0x80 {
            upper = scalar &- 0x41 < 26
        } else if let unicode = Unicode.Scalar(scalar) {
            upper = unicode.properties.isUppercase
        } else {
            upper = false
        }
        return (upper ? 1 << 32 : 0) | UInt64(scalar)
    }

    /// Whether a code point is an ASCII digit, the only digits read as numbers.
    @inline(__always)
    private static func isDigit(_ scalar: UInt32) -> Bool {
        scalar &- 0x30 < 10
    }

    /// Compares token sequences: digit runs by numeric value, other code points by `key`.
    ///
    /// A number token ranks as the key of "0", so numbers sort among characters where digits do.
    /// Lexicographic order over a total preorder of tokens is itself a total preorder.
    @inline(__always)
    private static func compareTokens<A: IteratorProtocol<UInt32>, B: IteratorProtocol<UInt32>>(
        _ a: A, _ b: B, key: (UInt32) -> UInt64
    ) -> Int32 {
        var a = Lookahead(a)
        var b = Lookahead(b)
        while true {
            guard let x = a.peek() else { return b.peek() == nil ? 0 : -1 }
            guard let y = b.peek() else { return 1 }
            let xDigit = isDigit(x)
            let yDigit = isDigit(y)
            if xDigit && yDigit {
                let order = compareNumbers(&a, &b)
                if order != 0 { return order }
                continue
            }
            let xKey = xDigit ? key(0x30) : key(x)
            let yKey = yDigit ? key(0x30) : key(y)
            if xKey != yKey { return xKey < yKey ? -1 : 1 }
            // Equal keys: both characters, as a number's rank is no character's key.
            _ = a.next()
            _ = b.next()
        }
    }

    /// Compares the digit runs at the heads of `a` and `b` by value and reads past them.
    @inline(__always)
    private static func compareNumbers<A, B>(_ a: inout Lookahead<A>, _ b: inout Lookahead<B>) -> Int32 {
        // Skip leading zeros; then the longer run of significant digits is the larger number, and
        // runs of equal length are ordered by their first differing digit. No integer conversion,
        // so no overflow.
        while a.peek() == 0x30 { _ = a.next() }
        while b.peek() == 0x30 { _ = b.next() }
        var firstDifference: Int32 = 0
        while true {
            let x = a.peek().flatMap { isDigit($0) ? $0 : nil }
            let y = b.peek().flatMap { isDigit($0) ? $0 : nil }
            switch (x, y) {
            case (nil, nil): return firstDifference
            case (nil, _): return -1
            case (_, nil): return 1
            case let (x?, y?):
                if firstDifference == 0 && x != y { firstDifference = x < y ? -1 : 1 }
                _ = a.next()
                _ = b.next()
            }
        }
    }
}
