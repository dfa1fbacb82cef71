/// Long `IN` lists in SQL as one JSON array read with `json_each`: a list of 50,000 keys is one
/// bound parameter (within SQLite's variable limit, one statement text whatever the length), and
/// SQLite looks each member up through the column's index, or by primary key, instead of
/// scanning the table.
extension PredicateSemantics {
    /// Lists with more non-nil members than this are written as a JSON array; shorter ones as
    /// parameters, which SQLite plans as well and which need no JSON parsing.
    static let jsonListThreshold = 64

    /// The non-nil members of an `IN` list as the text of a JSON array, when there are more than
    /// ``jsonListThreshold`` of them and every one reads back from JSON exactly as it would be
    /// bound: integers, finite reals, text without U+0000. `json_each` yields them as INTEGER,
    /// REAL and TEXT values with no affinity, as bound parameters are, so `IN` compares them as
    /// it compares a list of parameters. Nil otherwise (blobs, infinities, NaN, a NUL character).
    static func jsonList(_ members: [SQLValue]) -> SQLValue? {
        guard members.count > jsonListThreshold else { return nil }
        var text = "["
        text.reserveCapacity(members.count * 8)
        for (index, value) in members.enumerated() {
            if index > 0 { text += "," }
            switch value {
            case .integer(let integer): text += String(integer)
            case .real(let real):
                // JSON has no infinities or NaN; an integral number without a point or an
                // exponent would read back as INTEGER, so `2.0` keeps its point.
                guard real.isFinite else { return nil }
                let written = "\(real)"
                text += written.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? written : written + ".0"
            case .text(let string):
                guard appendJSONString(string, to: &text) else { return nil }
            case .null, .blob: return nil
            }
        }
        return .text(text + "]")
    }

    /// Whether ``inListSQL(_:isOptional:_:bind:)`` writes `values` as one JSON array (one bound
    /// value instead of one per member, as the compiler counts them).
    static func writesAsJSONList(_ values: [SQLValue]) -> Bool {
        var count = 0
        for value in values {
            switch value {
            case .null: continue
            case .integer: count += 1
            case .real(let real): if real.isFinite { count += 1 } else { return false }
            case .text(let string): if string.utf8.contains(0) { return false } else { count += 1 }
            case .blob: return false
            }
        }
        return count > jsonListThreshold
    }

    /// Appends `string` as a JSON string literal; false for a string with U+0000, which
    /// `json_each` would not hand back whole.
    private static func appendJSONString(_ string: String, to text: inout String) -> Bool {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default:
                if scalar.value == 0 { return false }
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        text += "\""
        return true
    }
}
