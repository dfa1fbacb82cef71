import Foundation

/// JSON text built as UTF-8 bytes.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Sorted keys as runs (see ``KeyRuns``): `[1,-3,9]`. A batch request's history record
    /// holds every key it changed, so the text is written a chunk at a time into a buffer and
    /// appended at once, not a byte at a time (no array of runs, no allocation per value).
    mutating func appendRuns(_ keys: [Int64]) {
        bytes.append(UInt8(ascii: "["))
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { buffer in
            var used = 0
            var first = true
            KeyRuns.forEachValue(of: keys) { value in
                if used > buffer.count - Self.longestInteger - 1 {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<used]))
                    used = 0
                }
                if !first {
                    buffer[used] = UInt8(ascii: ",")
                    used += 1
                }
                first = false
                used = Self.write(value, into: buffer, at: used)
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<used]))
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Decimal digits, without allocating.
    mutating func appendInteger(_ value: Int64) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.longestInteger) { buffer in
            let used = Self.write(value, into: buffer, at: 0)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<used]))
        }
    }

    /// The most bytes `write` takes: `Int64.min` is a sign and 19 digits.
    private static let longestInteger = 20

    /// Writes `value`'s decimal digits at `offset`; returns the offset after them.
    @inline(__always)
    private static func write(_ value: Int64, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        var position = offset
        if value < 0 {
            buffer[position] = UInt8(ascii: "-")
            position += 1
        }
        var magnitude = value.magnitude
        var length = 1
        var rest = magnitude / 10
        while rest > 0 {
            length += 1
            rest /= 10
        }
        let end = position + length
        var digit = end
        repeat {
            digit -= 1
            buffer[digit] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        return end
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": append("\\\"")
            case "\\": append("\\\\")
            case _ where scalar.value < 0x20: append(String(format: "\\u%04x", scalar.value))
            default: UTF8.encode(scalar) { bytes.append($0) }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
