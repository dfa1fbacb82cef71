import Foundation
import PersistKitText

extension AttributeValidation {
    /// Whether a value breaks no rule: what every save asks of every validated value, so it
    /// builds no text and counts characters only as far as a bound.
    func accepts(_ value: SQLValue) -> Bool {
        switch value {
        case .null:
            return true
        case .text(let text):
            if let minimumLength, !Self.has(text, atLeast: minimumLength) { return false }
            if let maximumLength, !Self.has(text, atMost: maximumLength) { return false }
            if pattern != nil && !matchesPattern(text) { return false }
        case .blob(let data):
            if let minimumLength, data.count < minimumLength { return false }
            if let maximumLength, data.count > maximumLength { return false }
        case .integer, .real:
            break
        }
        if let minimum, SQLValue.compare(value, minimum) < 0 { return false }
        if let maximum, SQLValue.compare(value, maximum) > 0 { return false }
        return true
    }

    /// Whether `text` has at least `count` characters, walking no further than that.
    private static func has(_ text: String, atLeast count: Int) -> Bool {
        count <= 0 || (text.utf8.count >= count && text.index(text.startIndex, offsetBy: count, limitedBy: text.endIndex) != nil)
    }

    /// Whether `text` has at most `count` characters: at once when it has no more bytes.
    private static func has(_ text: String, atMost count: Int) -> Bool {
        if text.utf8.count <= count { return true }
        guard let end = text.index(text.startIndex, offsetBy: count, limitedBy: text.endIndex) else { return true }
        return end == text.endIndex
    }

    /// The rules a value breaks, one sentence each naming the entity, the key and the rule:
    /// `Task.name must be at most 1,000 characters (has 1,204)`. nil values break none.
    func problems(with value: SQLValue, of attribute: AttributeDescription, in entity: String) -> [String] {
        if value.isNull { return [] }
        let key = entity + "." + attribute.name
        var problems: [String] = []
        if let length = Self.length(of: value) {
            problems += lengthProblems(length, unit: value.storageClassName == "BLOB" ? "byte" : "character", key: key)
        }
        let isDate = attribute.type == .date
        if let minimum, SQLValue.compare(value, minimum) < 0 {
            problems.append("\(key) must be \(isDate ? "no earlier than" : "at least") \(ValueText.describe(minimum, as: attribute.type))"
                            + " (is \(ValueText.describe(value, as: attribute.type)))")
        }
        if let maximum, SQLValue.compare(value, maximum) > 0 {
            problems.append("\(key) must be \(isDate ? "no later than" : "at most") \(ValueText.describe(maximum, as: attribute.type))"
                            + " (is \(ValueText.describe(value, as: attribute.type)))")
        }
        if let pattern, case .text(let text) = value {
            let shown = ValueText.describe(value, as: attribute.type)
            switch patternOutcome(text) {
            case .matched: break
            case .unmatched: problems.append("\(key) must match the pattern \(pattern) (is \(shown))")
            case .exceededLimit(let steps):
                problems.append("\(key) could not be checked against the pattern \(pattern): matching gave up after \(steps) steps (is \(shown))")
            case .failed:
                problems.append("\(key) could not be checked against the pattern \(pattern): the regular expression engine could not finish (is \(shown))")
            }
        }
        return problems
    }

    /// The length rules a value of `length` characters or bytes (`unit`) breaks.
    func lengthProblems(_ length: Int, unit: String, key: String) -> [String] {
        var problems: [String] = []
        if let minimumLength, length < minimumLength {
            problems.append("\(key) must be at least \(ValueText.counted(minimumLength, unit)) (has \(ValueText.grouped(length)))")
        }
        if let maximumLength, length > maximumLength {
            problems.append("\(key) must be at most \(ValueText.counted(maximumLength, unit)) (has \(ValueText.grouped(length)))")
        }
        return problems
    }

    /// Characters of text (as `String.count`), bytes of data; nil for other values.
    private static func length(of value: SQLValue) -> Int? {
        switch value {
        case .text(let text): return text.count
        case .blob(let data): return data.count
        default: return nil
        }
    }
}
