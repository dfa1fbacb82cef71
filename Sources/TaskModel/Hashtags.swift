/// Finds hashtags in text: `Buy milk #errands` has the tag `errands`.
///
/// A hashtag is `#` followed by letters, digits, marks, `_` and `-`, with at least one letter,
/// where the `#` starts the text or follows a character that is not a letter, digit, `_`, `#`,
/// `&` or `/` (so `C#`, `&#38;`, `page.html#top`, `#12` and a Markdown `# Heading` are none).
/// A trailing `-` or `_` is not part of it (`#later-` is `later`).
///
/// ```swift
/// Hashtags.names(in: "Call #Bank about #fees, then #bank again")   // ["Bank", "fees"]
/// ```
public enum Hashtags {
    /// The hashtags' names, without `#`, in order of first appearance; a name seen again in
    /// another case is left out (the first spelling wins).
    public static func names(in text: String) -> [String] {
        var names: [String] = []
        var seen = Set<String>()
        var previous: Character?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "#", previous.map(canPrecede) ?? true {
                let start = text.index(after: index)
                var end = start
                while end < text.endIndex, isPart(text[end]) { end = text.index(after: end) }
                var name = Substring(text[start..<end])
                while let last = name.last, last == "-" || last == "_" { name = name.dropLast() }
                if name.contains(where: \.isLetter), name.count <= Project.maximumNameLength,
                   seen.insert(name.lowercased()).inserted {
                    names.append(String(name))
                }
                if end > start {
                    previous = text[text.index(before: end)]
                    index = end
                    continue
                }
            }
            previous = character
            index = text.index(after: index)
        }
        return names
    }

    /// The hashtags of a task's name and notes together, as ``names(in:)`` finds them.
    public static func names(name: String, notes: String?) -> [String] {
        names(in: name + "\n" + (notes ?? ""))
    }

    private static func isPart(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "-"
            || character.unicodeScalars.allSatisfy { $0.properties.generalCategory == .nonspacingMark
                || $0.properties.generalCategory == .spacingMark }
    }

    private static func canPrecede(_ character: Character) -> Bool {
        !(character.isLetter || character.isNumber || character == "_" || character == "#" || character == "&" || character == "/")
    }
}
