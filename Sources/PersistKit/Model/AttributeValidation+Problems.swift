import Foundation

extension AttributeValidation {
    /// The rules a value breaks, one sentence each naming the entity, the key and the rule:
    /// `Task.name must be at most 1,000 characters (has 1,204)`. nil values break none.
    func problems(with value: SQLValue, of attribute: AttributeDescription, in entity: String) -> [String] {
        if value.isNull { return [] }
        let key = entity + "." + attribute.name
        var problems: [String] = []
        if minimumLength != nil || maximumLength != nil, let length = Self.length(of: value) {
            let unit = value.storageClassName == "BLOB" ? "byte" : "character"
            if let minimumLength, length < minimumLength {
                problems.append("\(key) must be at least \(ValueText.counted(minimumLength, unit)) (has \(ValueText.grouped(length)))")
            }
            if let maximumLength, length > maximumLength {
                problems.append("\(key) must be at most \(ValueText.counted(maximumLength, unit)) (has \(ValueText.grouped(length)))")
            }
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
        if let pattern, case .text(let text) = value, !matchesPattern(text) {
            problems.append("\(key) must match the pattern \(pattern) (is \(ValueText.describe(value, as: attribute.type)))")
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
