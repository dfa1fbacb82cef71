/// A command line split as a POSIX shell splits it: words separated by blanks, `'...'` taken
/// as it is, `"..."` with `\"` and `\\` escapes, a backslash outside quotes escaping the next
/// character; `> FILE` (or `>FILE`) redirects standard output, and `| head -n N` keeps its
/// first lines.
struct ShellWords: Equatable {
    /// The words, without the redirection.
    var words: [String] = []
    /// The file standard output goes to, if redirected.
    var output: String?
    /// How many lines of standard output `| head -n N` keeps.
    var headLines: Int?

    /// Nil for text a shell would not accept (an unclosed quote).
    init?(_ line: String) {
        var line = line
        if let pipe = line.range(of: " | head -n ") {
            guard let count = Int(line[pipe.upperBound...]) else { return nil }
            headLines = count
            line = String(line[..<pipe.lowerBound])
        }
        var words: [String] = []
        var current = ""
        var inWord = false
        var characters = line.makeIterator()
        var redirectNext = false
        func finish() {
            guard inWord else { return }
            if redirectNext {
                output = current
                redirectNext = false
            } else if current == ">" {
                redirectNext = true
            } else if current.hasPrefix(">") {
                output = String(current.dropFirst())
            } else {
                words.append(current)
            }
            current = ""
            inWord = false
        }
        while let character = characters.next() {
            switch character {
            case " ", "\t":
                finish()
            case "'":
                inWord = true
                var closed = false
                while let next = characters.next() {
                    if next == "'" { closed = true; break }
                    current.append(next)
                }
                guard closed else { return nil }
            case "\"":
                inWord = true
                var closed = false
                while let next = characters.next() {
                    if next == "\"" { closed = true; break }
                    if next == "\\", let escaped = characters.next() {
                        if escaped != "\"" && escaped != "\\" && escaped != "$" && escaped != "`" { current.append("\\") }
                        current.append(escaped)
                    } else {
                        current.append(next)
                    }
                }
                guard closed else { return nil }
            case "\\":
                inWord = true
                if let escaped = characters.next() { current.append(escaped) }
            default:
                inWord = true
                current.append(character)
            }
        }
        finish()
        guard !redirectNext else { return nil }
        self.words = words
    }
}
