import PersistKit

/// ``DayStats``'s per-project counts as one attribute: a JSON list.
struct ProjectCompletionList: Codable, Sendable, Hashable, AttributeValue {
    var items: [ProjectCompletion] = []

    init(_ items: [ProjectCompletion] = []) {
        self.items = items
    }

    /// A plain JSON list, not an object around one.
    init(from decoder: Decoder) throws {
        items = try decoder.singleValueContainer().decode([ProjectCompletion].self)
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(items)
    }
}
