import Foundation

/// Folds a regular expression's literal text the way ``TextFolding`` folds the values it is
/// matched against, so that `MATCHES[c]` and `MATCHES[d]` fold as `CONTAINS[c]` and
/// `CONTAINS[d]` do: the value "ı" (dotless i) folds to "i", and so must the pattern "ı".
///
/// - `[d]`: the whole pattern is folded (its syntax is ASCII, which diacritic folding leaves
///   alone), then recomposed (NFC).
/// - `[c]`: each non-ASCII literal scalar outside a character class, an escape or a group's
///   header is replaced by its full case folding, recomposed: "ß" becomes `(?:ss)`, a group so
///   that a quantifier still applies to the whole of it; "K" (Kelvin) becomes "k". ASCII is
///   left as written (the match is case-insensitive anyway, and escapes such as `\S` and `\s`
///   differ by case). Character classes are left as written: ICU's case-insensitive flag closes
///   them over simple case mappings.
///
/// ```swift
/// RegexPatternFolding.fold("straße+", .caseInsensitive)  // "stra(?:ss)e+"
/// ```
package enum RegexPatternFolding {
    /// The pattern to match values folded by ``TextFolding/foldComposed(_:_:)`` with `options`.
    package static func fold(_ pattern: String, _ options: TextOptions) -> String {
        let composed = options.contains(.diacriticInsensitive)
            ? TextFolding.foldComposed(pattern, .diacriticInsensitive)
            : (TextFolding.isASCII(pattern) ? pattern : pattern.precomposedStringWithCanonicalMapping)
        guard options.contains(.caseInsensitive), !TextFolding.isASCII(composed) else { return composed }
        var scanner = Scanner(Array(composed.unicodeScalars), options: options)
        return scanner.folded()
    }

    /// Walks a pattern's scalars, copying syntax and folding literals.
    private struct Scanner {
        let scalars: [Unicode.Scalar]
        let options: TextOptions
        var index = 0
        var output = String.UnicodeScalarView()

        init(_ scalars: [Unicode.Scalar], options: TextOptions) {
            self.scalars = scalars
            self.options = options
        }

        mutating func folded() -> String {
            while index < scalars.count {
                let scalar = scalars[index]
                switch scalar {
                case "\\": copyEscape()
                case "[": copyClass()
                case "(" where peek(1) == "?": copyGroupHeader()
                default:
                    if scalar.isASCII { copy(1) } else { appendFolded(scalar) }
                }
            }
            return String(output)
        }

        private func peek(_ offset: Int) -> Unicode.Scalar? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }

        private mutating func copy(_ count: Int) {
            let end = min(scalars.count, index + count)
            output.append(contentsOf: scalars[index..<end])
            index = end
        }

        /// Copies up to and including the first `terminator` (or to the end).
        private mutating func copy(through terminator: Unicode.Scalar) {
            let end = scalars[index...].firstIndex(of: terminator).map { $0 + 1 } ?? scalars.count
            copy(end - index)
        }

        /// A literal's fold, recomposed; grouped when it is more than one scalar.
        private mutating func appendFolded(_ scalar: Unicode.Scalar) {
            index += 1
            let folded = TextFolding.foldComposed(String(scalar), options)
            let escaped = NSRegularExpression.escapedPattern(for: folded)
            if folded.unicodeScalars.count == 1 {
                output.append(contentsOf: escaped.unicodeScalars)
            } else {
                output.append(contentsOf: "(?:\(escaped))".unicodeScalars)
            }
        }

        /// `\x`, with the braces of `\p{..}`, `\P{..}`, `\N{..}`, `\x{..}` and `\k<..>`; the
        /// text of `\Q...\E` folded literal by literal.
        private mutating func copyEscape() {
            guard let next = peek(1) else { return copy(1) }
            switch next {
            case "p", "P", "N", "x":
                if peek(2) == "{" { copy(through: "}") } else { copy(2) }
            case "k" where peek(2) == "<":
                copy(through: ">")
            case "Q":
                index += 2
                while index < scalars.count, !(scalars[index] == "\\" && peek(1) == "E") {
                    let scalar = scalars[index]
                    if scalar.isASCII {
                        index += 1
                        output.append(contentsOf: NSRegularExpression.escapedPattern(for: String(scalar)).unicodeScalars)
                    } else {
                        appendFolded(scalar)
                    }
                }
                index = min(scalars.count, index + 2)
            default:
                copy(2)
            }
        }

        /// A character class, nested classes and escapes included, as written.
        private mutating func copyClass() {
            var depth = 0
            var position = index
            // A `]` right after `[` or `[^` is a literal in ICU.
            var first = true
            while position < scalars.count {
                let scalar = scalars[position]
                if scalar == "\\" {
                    position += 2
                    first = false
                    continue
                }
                if scalar == "[" {
                    depth += 1
                    first = true
                    position += 1
                    if position < scalars.count, scalars[position] == "^" { position += 1 }
                    continue
                }
                if scalar == "]" && !first {
                    depth -= 1
                    position += 1
                    if depth == 0 { break }
                    continue
                }
                first = false
                position += 1
            }
            copy(position - index)
        }

        /// `(?:`, `(?=`, `(?<name>`, `(?i)`, `(?#...)`: copied as written.
        private mutating func copyGroupHeader() {
            switch peek(2) {
            case "#":
                copy(through: ")")
            case "<" where peek(3).map { $0.properties.isAlphabetic } == true:
                copy(through: ">")
            default:
                copy(2)
                while index < scalars.count {
                    let scalar = scalars[index]
                    guard scalar.isASCII, scalar.properties.isAlphabetic || scalar == "-" else { break }
                    copy(1)
                }
            }
        }
    }
}
