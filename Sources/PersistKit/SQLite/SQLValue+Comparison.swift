import PersistKitText
import Foundation

extension SQLValue {
    /// Whether two values are the same to the byte: text is compared as UTF-8 bytes, not by
    /// Swift's canonical equivalence, because SQLite's `=` compares bytes.
    @inline(__always)
    static func identical(_ a: SQLValue, _ b: SQLValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.integer(let x), .integer(let y)): return x == y
        case (.real(let x), .real(let y)): return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
        case (.text(let x), .text(let y)): return bytesEqual(x, y)
        case (.blob(let x), .blob(let y)): return x == y
        default: return false
        }
    }

    /// Byte equality of two strings: the same representation (one buffer, or the same small
    /// string: a snapshot and its copy share their strings) first, then lengths, then one
    /// memcmp of their UTF-8.
    @inline(__always)
    static func bytesEqual(_ x: String, _ y: String) -> Bool {
        if unsafeBitCast(x, to: (UInt64, UInt64).self) == unsafeBitCast(y, to: (UInt64, UInt64).self) { return true }
        guard x.utf8.count == y.utf8.count else { return false }
        var x = x, y = y
        return x.withUTF8 { a in
            y.withUTF8 { b in
                guard let pa = a.baseAddress, let pb = b.baseAddress else { return a.count == b.count }
                return memcmp(pa, pb, a.count) == 0
            }
        }
    }

    static func identical(_ a: ContiguousArray<SQLValue>, _ b: ContiguousArray<SQLValue>) -> Bool {
        guard a.count == b.count else { return false }
        for index in a.indices where !identical(a[index], b[index]) { return false }
        return true
    }

    /// SQLite's ordering of values (as `ORDER BY` with the BINARY collation): NULL first, then
    /// numbers (integers and reals compared by value), then text (by UTF-8 bytes), then blobs
    /// (by bytes). Returns a negative number, zero or a positive number.
    @inline(__always)
    static func compare(_ a: SQLValue, _ b: SQLValue, collation: TextCollation = .binary) -> Int {
        // Same-class numbers first, without copying payloads: what sorts compare most.
        if case .integer(let x) = a, case .integer(let y) = b { return x < y ? -1 : (x == y ? 0 : 1) }
        if case .real(let x) = a, case .real(let y) = b { return x < y ? -1 : (x == y ? 0 : 1) }
        return compareMixed(a, b, collation: collation)
    }

    private static func compareMixed(_ a: SQLValue, _ b: SQLValue, collation: TextCollation) -> Int {
        switch (a, b) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case (.integer(let x), .integer(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.real(let x), .real(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.integer(let x), .real(let y)): return -compareReal(y, withInteger: x)
        case (.real(let x), .integer(let y)): return compareReal(x, withInteger: y)
        case (.integer, _), (.real, _): return -1
        case (_, .integer), (_, .real): return 1
        case (.text(let x), .text(let y)): return compareText(x, y, collation: collation)
        case (.text, .blob): return -1
        case (.blob, .text): return 1
        case (.blob(let x), .blob(let y)): return compareBytes(x, y)
        }
    }

    /// Compares a real with an integer exactly, as SQLite does (no rounding through Double).
    private static func compareReal(_ real: Double, withInteger integer: Int64) -> Int {
        if real.isNaN { return -1 }
        if real < -9223372036854775808.0 { return -1 }
        if real >= 9223372036854775808.0 { return 1 }
        let truncated = Int64(real)
        if truncated < integer { return -1 }
        if truncated > integer { return 1 }
        let fraction = real - Double(truncated)
        return fraction < 0 ? -1 : (fraction > 0 ? 1 : 0)
    }

    static func compareText(_ x: String, _ y: String, collation: TextCollation) -> Int {
        var x = x, y = y
        return x.withUTF8 { a in y.withUTF8 { b in Int(collation.compare(a, b)) } }
    }

    private static func compareBytes(_ x: Data, _ y: Data) -> Int {
        x.withUnsafeBytes { a in
            y.withUnsafeBytes { b in
                let common = min(a.count, b.count)
                if common > 0, let pa = a.baseAddress, let pb = b.baseAddress {
                    let result = memcmp(pa, pb, common)
                    if result != 0 { return Int(result) }
                }
                return a.count - b.count
            }
        }
    }
}
