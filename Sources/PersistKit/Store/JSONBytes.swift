import Foundation

/// JSON text built as UTF-8 bytes.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Sorted keys as runs (see ``KeyRuns``): `[1,-3,9]`.
    mutating func appendRuns(_ keys: [Int64]) {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in KeyRuns.compress(keys).enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendInteger(value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Decimal digits, without allocating.
    mutating func appendInteger(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var divisor: UInt64 = 1
        while magnitude / divisor >= 10 { divisor *= 10 }
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude / divisor))
            magnitude %= divisor
            divisor /= 10
        } while divisor > 0
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
