/// Matches text for predicates, identically in SQLite and in memory.
///
/// SQLite calls the buffer entry point from the registered SQL functions with the raw UTF-8 of
/// `sqlite3_value_text`; the in-memory evaluator calls the `String` entry point, which hands the
/// string's UTF-8 to the very same buffer code, so the two can never disagree.
///
/// Semantics:
/// - **No options:** exact. `equal`, `contains`, `beginsWith` and `endsWith` compare bytes, like SQL
///   (`instr`, `substr`): no normalization, so precomposed and decomposed "é" differ.
/// - **With `[c]` and/or `[d]`:** both sides are folded by ``TextFolding/fold(_:_:)`` (which also
///   normalizes to NFD), then compared as sequences of **Characters** (extended grapheme clusters),
///   with Characters equal when their folded bytes are equal. Characters rather than scalars, so a
///   match never ends inside a character: "café" does not contain "cafe" under `[c]` (the "é" is
///   one character), but does under `[cd]`, and "e" never matches the first half of "e" + U+0301.
/// - **`like`:** always by Characters, `?` consuming exactly one. Literal characters are compared
///   by their bytes without options and by their folded bytes with options. Wildcards are found in
///   the pattern before folding, so folding never turns text into a wildcard. A backslash escapes
///   the next character (`\*`, `\?`, `\\`); a backslash ending the pattern stands for itself.
/// - **Empty pattern:** every value contains, begins with and ends with "" (as SQL's
///   `LIKE '%%'` and `instr(x, '')` do); only "" equals "".
/// - **Invalid UTF-8** (possible in SQLite text): compared as bytes without options; with options
///   or `like`, repaired with U+FFFD as `String(decoding:as:)` does. Never traps.
///
/// Performance: when both sides are ASCII (without CR, which forms one character with a following
/// LF), the answer is computed with byte loops and ASCII lowercasing, without allocating; for ASCII
/// this is exactly what the Unicode path computes.
package enum TextMatcher {
    /// Matches UTF-8 `value` against UTF-8 `pattern` with operator `op` under `options`.
    ///
    /// The buffers are not NUL-terminated and may be empty with a `nil` base address.
    package static func matches(
        _ op: TextMatchOperator,
        value: UnsafeBufferPointer<UInt8>,
        pattern: UnsafeBufferPointer<UInt8>,
        options: TextOptions
    ) -> Bool {
        if options.isEmpty && op != .like {
            return exactMatch(op, value, pattern, fold: false)
        }
        if isSimpleASCII(value) && isSimpleASCII(pattern) {
            let caseInsensitive = options.contains(.caseInsensitive)
            if op == .like {
                return asciiLike(value, pattern, caseInsensitive: caseInsensitive)
            }
            return exactMatch(op, value, pattern, fold: caseInsensitive)
        }
        return unicodeMatch(op, value: value, pattern: pattern, options: options)
    }

    /// Matches `value` against `pattern`; the same code as the buffer entry point.
    ///
    /// ```swift
    /// TextMatcher.matches(.contains, value: "ÉCLAIR", pattern: "éclair",
    ///                     options: [.caseInsensitive, .diacriticInsensitive]) // true
    /// ```
    package static func matches(
        _ op: TextMatchOperator,
        value: String,
        pattern: String,
        options: TextOptions
    ) -> Bool {
        var value = value
        var pattern = pattern
        return value.withUTF8 { valueBytes in
            pattern.withUTF8 { patternBytes in
                matches(op, value: valueBytes, pattern: patternBytes, options: options)
            }
        }
    }

    // MARK: - Byte paths

    /// Whether the buffer is ASCII without CR, so that its bytes are exactly its Characters.
    @inline(__always)
    static func isSimpleASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var i = 0
        // Eight bytes at a time: a high bit anywhere, or a zero byte in `word ^ CRs` (the classic
        // exact has-zero-byte test), rejects the buffer. Every byte is tested alike, so byte order
        // does not matter.
        while i &+ 8 <= count {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            let crs = word ^ (ones &* 0x0D)
            if (word | ((crs &- ones) & ~crs)) & highs != 0 { return false }
            i &+= 8
        }
        while i < count {
            let byte = base[i]
            if byte >= 0x80 || byte == 0x0D { return false }
            i &+= 1
        }
        return true
    }

    /// Byte-wise `equal`, `contains`, `beginsWith`, `endsWith`; ASCII-lowercased when `fold` is set.
    @inline(__always)
    private static func exactMatch(
        _ op: TextMatchOperator,
        _ value: UnsafeBufferPointer<UInt8>,
        _ pattern: UnsafeBufferPointer<UInt8>,
        fold: Bool
    ) -> Bool {
        let n = value.count
        let m = pattern.count
        switch op {
        case .equal:
            return n == m && bytesEqual(value, 0, pattern, 0, m, fold: fold)
        case .beginsWith:
            return m <= n && bytesEqual(value, 0, pattern, 0, m, fold: fold)
        case .endsWith:
            return m <= n && bytesEqual(value, n - m, pattern, 0, m, fold: fold)
        case .contains:
            return fold ? asciiContainsFolded(value, pattern) : bytesContain(value, pattern)
        case .like:
            // Not reached: `like` has its own paths. Answer correctly anyway.
            return asciiLike(value, pattern, caseInsensitive: fold)
        }
    }

    /// Whether `a[aStart..<aStart+count]` equals `b[bStart..<bStart+count]`, optionally ASCII-folded.
    @inline(__always)
    private static func bytesEqual(
        _ a: UnsafeBufferPointer<UInt8>, _ aStart: Int,
        _ b: UnsafeBufferPointer<UInt8>, _ bStart: Int,
        _ count: Int, fold: Bool
    ) -> Bool {
        var i = 0
        if fold {
            while i < count {
                if TextFolding.asciiLower(a[aStart &+ i]) != TextFolding.asciiLower(b[bStart &+ i]) {
                    return false
                }
                i &+= 1
            }
        } else {
            while i < count {
                if a[aStart &+ i] != b[bStart &+ i] { return false }
                i &+= 1
            }
        }
        return true
    }

    /// Exact byte substring search.
    private static func bytesContain(_ value: UnsafeBufferPointer<UInt8>, _ pattern: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = value.count
        let m = pattern.count
        if m == 0 { return true }
        if m > n { return false }
        let first = pattern[0]
        var i = 0
        while i <= n &- m {
            if value[i] == first && bytesEqual(value, i &+ 1, pattern, 1, m &- 1, fold: false) {
                return true
            }
            i &+= 1
        }
        return false
    }

    /// ASCII case-insensitive substring search: the hot loop of `CONTAINS[c]` over ASCII names.
    private static func asciiContainsFolded(_ value: UnsafeBufferPointer<UInt8>, _ pattern: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = value.count
        let m = pattern.count
        if m == 0 { return true }
        if m > n { return false }
        // A letter matches itself with bit 0x20 set; any other byte only itself.
        let first = TextFolding.asciiLower(pattern[0])
        let mask: UInt8 = first &- 0x61 < 26 ? 0x20 : 0
        var i = 0
        while i <= n &- m {
            if value[i] | mask == first
                && bytesEqual(value, i &+ 1, pattern, 1, m &- 1, fold: true) {
                return true
            }
            i &+= 1
        }
        return false
    }

    /// One token of a LIKE pattern.
    private enum LikeToken<Literal> {
        case anyRun
        case anyOne
        case literal(Literal)
    }

    /// Reads the ASCII LIKE token at `index`, returning it and the index after it.
    @inline(__always)
    private static func asciiLikeToken(_ pattern: UnsafeBufferPointer<UInt8>, at index: Int) -> (LikeToken<UInt8>, Int) {
        let byte = pattern[index]
        switch byte {
        case UInt8(ascii: "*"): return (.anyRun, index &+ 1)
        case UInt8(ascii: "?"): return (.anyOne, index &+ 1)
        case UInt8(ascii: "\\") where index &+ 1 < pattern.count:
            return (.literal(pattern[index &+ 1]), index &+ 2)
        default: return (.literal(byte), index &+ 1)
        }
    }

    /// LIKE over ASCII bytes (each byte one Character), without allocating.
    private static func asciiLike(_ value: UnsafeBufferPointer<UInt8>, _ pattern: UnsafeBufferPointer<UInt8>, caseInsensitive: Bool) -> Bool {
        let n = value.count
        let m = pattern.count
        var v = 0
        var p = 0
        // Greedy matching that backtracks to the last `*` only: linear space, O(n·m) time at worst.
        var resumePattern = -1
        var resumeValue = 0
        while v < n {
            if p < m {
                let (token, next) = asciiLikeToken(pattern, at: p)
                switch token {
                case .anyRun:
                    resumePattern = next
                    resumeValue = v
                    p = next
                    continue
                case .anyOne:
                    p = next
                    v &+= 1
                    continue
                case .literal(let byte):
                    let equal = caseInsensitive
                        ? TextFolding.asciiLower(byte) == TextFolding.asciiLower(value[v])
                        : byte == value[v]
                    if equal {
                        p = next
                        v &+= 1
                        continue
                    }
                }
            }
            guard resumePattern >= 0 else { return false }
            resumeValue &+= 1
            v = resumeValue
            p = resumePattern
        }
        while p < m {
            let (token, next) = asciiLikeToken(pattern, at: p)
            guard case .anyRun = token else { return false }
            p = next
        }
        return true
    }

    // MARK: - Unicode path

    /// Folds both sides and matches them as Characters.
    private static func unicodeMatch(
        _ op: TextMatchOperator,
        value: UnsafeBufferPointer<UInt8>,
        pattern: UnsafeBufferPointer<UInt8>,
        options: TextOptions
    ) -> Bool {
        var valueText = TextFolding.fold(String(decoding: value, as: UTF8.self), options)
        let patternText = String(decoding: pattern, as: UTF8.self)
        if op == .like {
            return unicodeLike(GraphemeBytes(valueText), pattern: patternText, options: options)
        }
        var needleText = TextFolding.fold(patternText, options)
        // A match of Characters is a match of bytes too: most non-matching values are rejected
        // by comparing bytes, before paying for grapheme breaking.
        let bytesMatch = valueText.withUTF8 { valueBytes in
            needleText.withUTF8 { needleBytes in
                exactMatch(op, valueBytes, needleBytes, fold: false)
            }
        }
        guard bytesMatch else { return false }
        // Equal bytes are equal Characters; other operators must match on Character boundaries.
        if op == .equal { return true }
        let characters = GraphemeBytes(valueText)
        let needle = GraphemeBytes(needleText)
        let n = characters.count
        let m = needle.count
        switch op {
        case .beginsWith:
            return m <= n && characters.range(0, equals: needle, 0, m)
        case .endsWith:
            return m <= n && characters.range(n - m, equals: needle, 0, m)
        case .contains:
            if m > n { return false }
            for start in 0...(n - m) where characters.range(start, equals: needle, 0, m) {
                return true
            }
            return false
        case .equal, .like:
            return true  // Answered above.
        }
    }

    /// LIKE over Characters: wildcards found in the raw pattern, literal runs folded as a whole.
    private static func unicodeLike(_ value: GraphemeBytes, pattern: String, options: TextOptions) -> Bool {
        var tokens: [LikeToken<Int>] = []
        var literals = GraphemeBytes("")
        var run = ""
        func flushRun() {
            guard !run.isEmpty else { return }
            let folded = GraphemeBytes(TextFolding.fold(run, options))
            for index in 0..<folded.count {
                tokens.append(.literal(literals.count))
                literals.append(folded, index)
            }
            run = ""
        }
        var escaped = false
        for character in pattern {
            if escaped {
                run.append(character)
                escaped = false
                continue
            }
            switch character {
            case "*": flushRun(); tokens.append(.anyRun)
            case "?": flushRun(); tokens.append(.anyOne)
            case "\\": escaped = true
            default: run.append(character)
            }
        }
        if escaped { run.append("\\") }
        flushRun()

        let n = value.count
        let m = tokens.count
        var v = 0
        var p = 0
        var resumePattern = -1
        var resumeValue = 0
        while v < n {
            if p < m {
                switch tokens[p] {
                case .anyRun:
                    p &+= 1
                    resumePattern = p
                    resumeValue = v
                    continue
                case .anyOne:
                    p &+= 1
                    v &+= 1
                    continue
                case .literal(let index):
                    if value.range(v, equals: literals, index, 1) {
                        p &+= 1
                        v &+= 1
                        continue
                    }
                }
            }
            guard resumePattern >= 0 else { return false }
            resumeValue &+= 1
            v = resumeValue
            p = resumePattern
        }
        while p < m {
            guard case .anyRun = tokens[p] else { return false }
            p &+= 1
        }
        return true
    }
}
