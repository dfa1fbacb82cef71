/// Builds `invalidPredicate` errors that quote the format and name the character position.
struct PredicateFormatDiagnostics: Sendable {
    let format: String
    /// The character offset of each scalar offset, plus one entry for the end.
    private let characterOffsets: [Int]

    init(format: String) {
        self.format = format
        var offsets: [Int] = []
        var character = 0
        for element in format {
            for _ in element.unicodeScalars { offsets.append(character) }
            character &+= 1
        }
        offsets.append(character)
        characterOffsets = offsets
    }

    /// The character (grapheme cluster) offset of a scalar offset.
    func characterOffset(_ scalarOffset: Int) -> Int {
        guard let last = characterOffsets.last else { return 0 }
        guard scalarOffset >= 0 else { return 0 }
        guard scalarOffset < characterOffsets.count else { return last }
        return characterOffsets[scalarOffset]
    }

    /// Formats longer than this many characters are quoted only around the error.
    static let quoteLimit = 200

    func syntaxError(at scalarOffset: Int, _ problem: String) -> PersistError {
        let position = characterOffset(scalarOffset)
        var error = PersistError(.invalidPredicate, "Syntax error in predicate format \"\(quoted(around: position))\" at position \(position): \(problem)")
        error.position = position
        return error
    }

    func argumentError(at scalarOffset: Int, _ problem: String) -> PersistError {
        let position = characterOffset(scalarOffset)
        var error = PersistError(.invalidPredicate, "Bad argument for predicate format \"\(quoted(around: position))\" at position \(position): \(problem)")
        error.position = position
        return error
    }

    /// The whole format, or for a long one the characters around `position` with "…" for the rest.
    private func quoted(around position: Int) -> String {
        let characters = Array(format)
        guard characters.count > Self.quoteLimit else { return format }
        let half = Self.quoteLimit / 2
        let lower = max(0, min(position &- half, characters.count))
        let upper = max(lower, min(position &+ half, characters.count))
        return (lower > 0 ? "…" : "") + String(characters[lower..<upper]) + (upper < characters.count ? "…" : "")
    }

    static func describe(_ scalar: Unicode.Scalar) -> String {
        let value = scalar.value
        let hex = String(value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 &- hex.count)) + hex
        if scalar.properties.generalCategory == .control || scalar.properties.isWhitespace
            || scalar.properties.generalCategory == .format || scalar.properties.generalCategory == .unassigned {
            return code
        }
        if scalar.isASCII { return "'\(Character(scalar))'" }
        return "'\(Character(scalar))' (\(code))"
    }

    static func describe(_ value: Any) -> String {
        var text = String(reflecting: value)
        if text.count > 40 { text = String(text.prefix(40)) + "…" }
        return "\(type(of: value)) (\(text))"
    }
}
