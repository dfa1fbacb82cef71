import Foundation

/// JSON as TaskModel's export documents and `tasks --json` write it: pretty-printed, keys
/// sorted, slashes unescaped, dates as ISO 8601 in UTC with milliseconds (``TaskDateCoding``),
/// and an empty list or object written `[ ]` or `{ }` on one line, the same on every platform
/// (Foundation's pretty-printer spaces empty containers differently from one platform to the
/// next).
///
/// ```swift
/// let text = TaskJSONText.string(of: ["tags": [String]()])   // "{\n  \"tags\" : [ ]\n}"
/// ```
public enum TaskJSONText {
    /// The JSON of `value`.
    ///
    /// - Throws: the encoder's error for a value that cannot be encoded (a non-finite number).
    public static func data(of value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(TaskDateCoding.string(from: date))
        }
        return Data(compactingEmptyContainers(String(decoding: try encoder.encode(value), as: UTF8.self)).utf8)
    }

    /// The JSON of `value` as text; `{}` for a value that cannot be encoded (strings,
    /// numbers, booleans, dates and nulls always can).
    public static func string(of value: some Encodable) -> String {
        (try? data(of: value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// `[`, then only whitespace holding a line break, then `]` becomes `[ ]` (and the same for
    /// `{ }`). A line break cannot occur inside a JSON string (it is written `\n`), so what is
    /// collapsed is always an empty container, never text.
    static func compactingEmptyContainers(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var pending: (open: Character, blank: String)?
        for character in text {
            if var open = pending {
                if character == " " || character == "\n" || character == "\t" || character == "\r" {
                    open.blank.append(character)
                    pending = open
                    continue
                }
                pending = nil
                let closes = (open.open == "[" && character == "]") || (open.open == "{" && character == "}")
                if closes && open.blank.contains("\n") {
                    result += "\(open.open) \(character)"
                    continue
                }
                result.append(open.open)
                result += open.blank
            }
            if character == "[" || character == "{" {
                pending = (character, "")
            } else {
                result.append(character)
            }
        }
        if let open = pending {
            result.append(open.open)
            result += open.blank
        }
        return result
    }
}
