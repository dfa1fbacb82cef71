/// Splits a predicate format string into tokens for `PredicateFormatParser`, substituting the
/// `%K`, `%d` and `%f` family of arguments as it goes (`%@` becomes an argument index).
///
/// The lexer works on the format's Unicode scalars; token positions are scalar offsets, which
/// `PredicateFormatDiagnostics` turns into character (grapheme cluster) offsets for the tree and
/// for error messages. It never traps: every index is bounds-checked and every integer is
/// accumulated with overflow reporting.
struct PredicateFormatLexer {
    /// One token: its kind and the scalar range `start..<end` it was read from.
    struct Token {
        var kind: Kind
        var start: Int
        var end: Int
    }

    enum Kind {
        /// A single identifier without `#`: a key, or a keyword (the parser decides).
        case word(String)
        /// A key path that cannot be a keyword: escaped with `#`, dotted, or from `%K`.
        case key(String)
        case string(String)
        case integer(Int64)
        case double(Double)
        /// `%@`: the index of the argument in the arguments array.
        case argument(Int)
        /// `$NAME`: a substitution variable (the name without `$`).
        case variable(String)
        /// `$t.name`: a key path from a SUBQUERY's variable (the name without `$`, then the path).
        case variableKey(String, String)
        /// `==`, `=`, `!=`, `<>`, `<`, `<=`, `=<`, `>`, `>=`, `=>`.
        case comparison(PredicateFormatOperator)
        /// `&&`.
        case and
        /// `||`.
        case or
        /// `!` (but not `!=`).
        case not
        /// `+`, `-`, `*`, `/` (a `-` before a number where no operand ends is the number's sign).
        case arithmetic(ArithmeticOperator)
        case leftParen, rightParen, leftBrace, rightBrace, leftBracket, rightBracket, comma
        case end
    }

    private let scalars: [Unicode.Scalar]
    private let arguments: [Any]
    private let diagnostics: PredicateFormatDiagnostics
    private var index = 0
    /// How many arguments the specifiers read so far have consumed.
    private(set) var argumentsUsed = 0
    /// Whether the last token ends an operand, so that a `-` after it subtracts (`a -1` is
    /// `a - 1`) rather than signs a number (`a > -1`).
    private var afterOperand = false
    /// Words that are operators, after which an operand starts.
    private static let operatorWords: Set<String> = [
        "AND", "OR", "NOT", "IN", "LIKE", "CONTAINS", "BEGINSWITH", "ENDSWITH", "MATCHES", "BETWEEN", "ANY", "SOME", "ALL", "NONE",
    ]

    init(scalars: [Unicode.Scalar], arguments: [Any], diagnostics: PredicateFormatDiagnostics) {
        self.scalars = scalars
        self.arguments = arguments
        self.diagnostics = diagnostics
    }

    // MARK: - Scalars

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        let position = index &+ offset
        guard position >= 0, position < scalars.count else { return nil }
        return scalars[position]
    }

    private func peekIs(_ character: Character, _ offset: Int = 0) -> Bool {
        guard let scalar = peek(offset) else { return false }
        return Character(scalar) == character
    }

    private mutating func advance(_ count: Int = 1) {
        index = min(index &+ count, scalars.count)
    }

    private func text(_ start: Int, _ end: Int) -> String {
        let lower = max(0, min(start, scalars.count))
        let upper = max(lower, min(end, scalars.count))
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[lower..<upper])
        return String(view)
    }

    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A) || value == 0x5F
        }
        return scalar.properties.isAlphabetic
    }

    static func isIdentifierContinue(_ scalar: Unicode.Scalar) -> Bool {
        if isIdentifierStart(scalar) { return true }
        if scalar.isASCII { return scalar.value >= 0x30 && scalar.value <= 0x39 }
        switch scalar.properties.generalCategory {
        case .decimalNumber, .letterNumber, .nonspacingMark, .spacingMark, .enclosingMark, .connectorPunctuation:
            return true
        default:
            return false
        }
    }

    private static func isDigit(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return false }
        return scalar.value >= 0x30 && scalar.value <= 0x39
    }

    private static func digitValue(_ scalar: Unicode.Scalar, radix: UInt64) -> UInt64? {
        let value = scalar.value
        let digit: UInt64
        switch value {
        case 0x30...0x39: digit = UInt64(value - 0x30)
        case 0x41...0x46: digit = UInt64(value - 0x41 + 10)
        case 0x61...0x66: digit = UInt64(value - 0x61 + 10)
        default: return nil
        }
        return digit < radix ? digit : nil
    }

    // MARK: - Tokens

    /// Reads the next token; at the end of the format, returns `.end` (again and again).
    mutating func next() throws(PersistError) -> Token {
        let token = try nextToken()
        switch token.kind {
        case .word(let word):
            // Keywords are ASCII: a word with other letters is a key.
            afterOperand = !word.utf8.allSatisfy({ $0 < 0x80 }) || !Self.operatorWords.contains(word.uppercased())
        case .key, .string, .integer, .double, .argument, .variable, .variableKey, .rightParen, .rightBrace: afterOperand = true
        default: afterOperand = false
        }
        return token
    }

    private mutating func nextToken() throws(PersistError) -> Token {
        while let scalar = peek(), scalar.properties.isWhitespace { advance() }
        let start = index
        guard let scalar = peek() else { return Token(kind: .end, start: start, end: start) }

        func token(_ kind: Kind, length: Int) -> Token {
            advance(length)
            return Token(kind: kind, start: start, end: index)
        }

        switch scalar {
        case "(": return token(.leftParen, length: 1)
        case ")": return token(.rightParen, length: 1)
        case "{": return token(.leftBrace, length: 1)
        case "}": return token(.rightBrace, length: 1)
        case "[": return token(.leftBracket, length: 1)
        case "]": return token(.rightBracket, length: 1)
        case ",": return token(.comma, length: 1)
        case "=":
            if peekIs("=", 1) { return token(.comparison(.equal), length: 2) }
            if peekIs("<", 1) { return token(.comparison(.lessOrEqual), length: 2) }
            if peekIs(">", 1) { return token(.comparison(.greaterOrEqual), length: 2) }
            return token(.comparison(.equal), length: 1)
        case "!":
            if peekIs("=", 1) { return token(.comparison(.notEqual), length: 2) }
            return token(.not, length: 1)
        case "<":
            if peekIs("=", 1) { return token(.comparison(.lessOrEqual), length: 2) }
            if peekIs(">", 1) { return token(.comparison(.notEqual), length: 2) }
            return token(.comparison(.less), length: 1)
        case ">":
            if peekIs("=", 1) { return token(.comparison(.greaterOrEqual), length: 2) }
            return token(.comparison(.greater), length: 1)
        case "&":
            if peekIs("&", 1) { return token(.and, length: 2) }
            throw diagnostics.syntaxError(at: start, "unknown character '&' (did you mean '&&'?)")
        case "|":
            if peekIs("|", 1) { return token(.or, length: 2) }
            throw diagnostics.syntaxError(at: start, "unknown character '|' (did you mean '||'?)")
        case "\"", "'":
            return try lexString(quote: scalar)
        case "%":
            return try lexSpecifier()
        case "#":
            return try lexKeyPath()
        case "$":
            return try lexVariable()
        case "-":
            if !afterOperand && (Self.isDigit(peek(1)) || (peekIs(".", 1) && Self.isDigit(peek(2)))) { return try lexNumber() }
            return token(.arithmetic(.subtract), length: 1)
        case "+": return token(.arithmetic(.add), length: 1)
        case "*": return token(.arithmetic(.multiply), length: 1)
        case "/": return token(.arithmetic(.divide), length: 1)
        case ".":
            if Self.isDigit(peek(1)) { return try lexNumber() }
            if peekIs("@", 1) {
                // `SUBQUERY(...).@count`: a collection operator after a parenthesis.
                advance()
                return try lexKeyPath()
            }
            throw diagnostics.syntaxError(at: start, "unexpected '.' (a key path is written without spaces, as in 'project.name')")
        default:
            if Self.isDigit(scalar) { return try lexNumber() }
            if Self.isIdentifierStart(scalar) { return try lexKeyPath() }
            throw diagnostics.syntaxError(at: start, "unknown character \(PredicateFormatDiagnostics.describe(scalar))")
        }
    }

    /// `name`, `project.name`, `#order`, `project.#order`, `tags.@count`, `tasks.@sum.rank`.
    private mutating func lexKeyPath() throws(PersistError) -> Token {
        let start = index
        var components: [String] = []
        var escaped = false
        while true {
            var prefix = ""
            if peekIs("#") || peekIs("@") {
                // `@` starts a collection operator (`@count`): never a keyword either.
                if peekIs("@") { prefix = "@" }
                escaped = true
                advance()
                guard let scalar = peek(), Self.isIdentifierStart(scalar) else {
                    throw diagnostics.syntaxError(at: index, "expected a key after '\(prefix.isEmpty ? "#" : prefix)'")
                }
            }
            let componentStart = index
            while let scalar = peek(), Self.isIdentifierContinue(scalar) { advance() }
            components.append(prefix + text(componentStart, index))
            guard peekIs(".") else { break }
            guard let following = peek(1), Self.isIdentifierStart(following) || following == "#" || following == "@" else {
                throw diagnostics.syntaxError(at: index &+ 1, "expected a key after '.' in key path '\(text(start, index &+ 1))'")
            }
            advance()
        }
        let name = components.joined(separator: ".")
        if components.count == 1 && !escaped { return Token(kind: .word(name), start: start, end: index) }
        return Token(kind: .key(name), start: start, end: index)
    }

    /// `$NAME`: a letter or underscore, then letters, digits and underscores.
    private mutating func lexVariable() throws(PersistError) -> Token {
        let start = index
        advance()
        guard let first = peek(), Self.isIdentifierStart(first) else {
            throw diagnostics.syntaxError(at: start, "expected a variable name after '$'")
        }
        let nameStart = index
        while let scalar = peek(), Self.isIdentifierContinue(scalar) { advance() }
        let name = text(nameStart, index)
        if peekIs("."), let following = peek(1), Self.isIdentifierStart(following) || following == "#" || following == "@" {
            // `$t.name`: a key path from a SUBQUERY's variable.
            advance()
            let path = try lexKeyPath()
            let pathText: String
            switch path.kind {
            case .word(let word): pathText = word
            case .key(let key): pathText = key
            default: pathText = ""
            }
            return Token(kind: .variableKey(name, pathText), start: start, end: index)
        }
        return Token(kind: .variable(name), start: start, end: index)
    }

    /// `42`, `-7`, `0x1F`, `0o17`, `0b101`, `1.5`, `.5`, `1.5e-3`.
    private mutating func lexNumber() throws(PersistError) -> Token {
        let start = index
        let negative = peekIs("-")
        if negative { advance() }

        var radix: UInt64 = 10
        if peekIs("0"), let marker = peek(1) {
            switch marker {
            case "x", "X": radix = 16
            case "o", "O": radix = 8
            case "b", "B": radix = 2
            default: break
            }
        }

        if radix != 10 {
            advance(2)
            let digitsStart = index
            var magnitude: UInt64 = 0
            var overflow = false
            while let scalar = peek(), let digit = Self.digitValue(scalar, radix: radix) {
                let product = magnitude.multipliedReportingOverflow(by: radix)
                let sum = product.partialValue.addingReportingOverflow(digit)
                overflow = overflow || product.overflow || sum.overflow
                magnitude = sum.partialValue
                advance()
            }
            if index == digitsStart {
                throw diagnostics.syntaxError(at: index, "expected digits after '\(text(start, index))'")
            }
            try rejectLetterAfterNumber(start: start)
            return Token(kind: .integer(try integer(magnitude, negative: negative, overflow: overflow, start: start)),
                         start: start, end: index)
        }

        var magnitude: UInt64 = 0
        var overflow = false
        while let scalar = peek(), Self.isDigit(scalar), let digit = Self.digitValue(scalar, radix: 10) {
            let product = magnitude.multipliedReportingOverflow(by: 10)
            let sum = product.partialValue.addingReportingOverflow(digit)
            overflow = overflow || product.overflow || sum.overflow
            magnitude = sum.partialValue
            advance()
        }
        var isDecimal = false
        if peekIs(".") {
            isDecimal = true
            advance()
            guard Self.isDigit(peek()) else {
                throw diagnostics.syntaxError(at: index, "expected a digit after the decimal point in '\(text(start, index))'")
            }
            while Self.isDigit(peek()) { advance() }
        }
        if peekIs("e") || peekIs("E") {
            isDecimal = true
            advance()
            if peekIs("+") || peekIs("-") { advance() }
            guard Self.isDigit(peek()) else {
                throw diagnostics.syntaxError(at: index, "expected a digit in the exponent of '\(text(start, index))'")
            }
            while Self.isDigit(peek()) { advance() }
        }
        try rejectLetterAfterNumber(start: start)

        guard isDecimal else {
            return Token(kind: .integer(try integer(magnitude, negative: negative, overflow: overflow, start: start)),
                         start: start, end: index)
        }
        var literal = text(start, index)
        if literal.hasPrefix("-.") {
            literal = "-0" + literal.dropFirst()
        } else if literal.hasPrefix(".") {
            literal = "0" + literal
        }
        guard let value = Double(literal), value.isFinite else {
            throw diagnostics.syntaxError(at: start, "number '\(text(start, index))' is out of range")
        }
        return Token(kind: .double(value), start: start, end: index)
    }

    private func rejectLetterAfterNumber(start: Int) throws(PersistError) {
        if let scalar = peek(), Self.isIdentifierContinue(scalar) || scalar == "." {
            throw diagnostics.syntaxError(at: index, "unexpected \(PredicateFormatDiagnostics.describe(scalar)) in number '\(text(start, index &+ 1))'")
        }
    }

    private func integer(_ magnitude: UInt64, negative: Bool, overflow: Bool, start: Int) throws(PersistError) -> Int64 {
        let limit: UInt64 = negative ? UInt64(Int64.max) &+ 1 : UInt64(Int64.max)
        guard !overflow, magnitude <= limit else {
            throw diagnostics.syntaxError(at: start, "number '\(text(start, index))' does not fit in a 64-bit integer")
        }
        if negative {
            return Int64(bitPattern: 0 &- magnitude)
        }
        return Int64(bitPattern: magnitude)
    }

    /// `"..."` or `'...'` with `\n \t \r \\ \" \'` escapes, `\xhh` (two hex digits), `\uhhhh`
    /// (four, with surrogate pairs) and octal `\o`, `\oo`, `\ooo` (up to `\377`; `\0` is NUL).
    private mutating func lexString(quote: Unicode.Scalar) throws(PersistError) -> Token {
        let start = index
        advance()
        var value = String.UnicodeScalarView()
        while true {
            guard let scalar = peek() else {
                throw diagnostics.syntaxError(at: start, "unterminated string literal (no closing \(quote == "'" ? "'" : "\"") for the quote at position \(diagnostics.characterOffset(start)))")
            }
            if scalar == quote {
                advance()
                return Token(kind: .string(String(value)), start: start, end: index)
            }
            guard scalar == "\\" else {
                value.append(scalar)
                advance()
                continue
            }
            let escapeStart = index
            advance()
            guard let escaped = peek() else { continue } // reported as unterminated above
            switch escaped {
            case "n": value.append("\n")
            case "t": value.append("\t")
            case "r": value.append("\r")
            case "\\", "\"", "'": value.append(escaped)
            case "0"..."7":
                value.append(try octalEscape(escapeStart: escapeStart))
                continue // octalEscape advanced past the digits
            case "x":
                advance()
                value.append(try hexEscape(escapeStart: escapeStart, digits: 2))
                continue
            case "u":
                advance()
                let high = try hexQuad(escapeStart: escapeStart)
                if (0xD800...0xDBFF).contains(high) {
                    let lowStart = index
                    guard peekIs("\\"), peekIs("u", 1) else {
                        throw diagnostics.syntaxError(at: escapeStart, "unpaired surrogate '\(text(escapeStart, index))' in string literal")
                    }
                    advance(2)
                    let low = try hexQuad(escapeStart: lowStart)
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw diagnostics.syntaxError(at: escapeStart, "unpaired surrogate '\(text(escapeStart, lowStart))' in string literal")
                    }
                    let combined = 0x10000 &+ ((high &- 0xD800) << 10) &+ (low &- 0xDC00)
                    guard let result = Unicode.Scalar(combined) else {
                        throw diagnostics.syntaxError(at: escapeStart, "invalid Unicode escape '\(text(escapeStart, index))'")
                    }
                    value.append(result)
                } else {
                    guard let result = Unicode.Scalar(high) else {
                        throw diagnostics.syntaxError(at: escapeStart, "invalid Unicode escape '\(text(escapeStart, index))' (a lone surrogate)")
                    }
                    value.append(result)
                }
                continue // hexQuad already advanced past the digits
            default:
                throw diagnostics.syntaxError(at: escapeStart, "unknown escape sequence '\\\(escaped.escaped(asASCII: false))' in string literal")
            }
            advance()
        }
    }

    /// Reads the four hex digits of a `\uXXXX` escape (the index is just after the `u`).
    private mutating func hexQuad(escapeStart: Int) throws(PersistError) -> UInt32 {
        var result: UInt32 = 0
        for _ in 0..<4 {
            guard let scalar = peek(), let digit = Self.digitValue(scalar, radix: 16) else {
                throw diagnostics.syntaxError(at: escapeStart, "expected four hex digits in Unicode escape '\(text(escapeStart, index))'")
            }
            result = (result << 4) | UInt32(truncatingIfNeeded: digit)
            advance()
        }
        return result
    }

    /// The scalar of a `\xhh` escape (the index is just after the `x`).
    private mutating func hexEscape(escapeStart: Int, digits: Int) throws(PersistError) -> Unicode.Scalar {
        var result: UInt32 = 0
        for _ in 0..<digits {
            guard let scalar = peek(), let digit = Self.digitValue(scalar, radix: 16) else {
                throw diagnostics.syntaxError(at: escapeStart, "expected two hex digits in escape '\(text(escapeStart, index))'")
            }
            result = (result << 4) | UInt32(truncatingIfNeeded: digit)
            advance()
        }
        // Two hex digits are at most U+00FF, always a valid scalar.
        return Unicode.Scalar(UInt8(truncatingIfNeeded: result))
    }

    /// The scalar of an octal escape: one to three octal digits (the index is at the first).
    private mutating func octalEscape(escapeStart: Int) throws(PersistError) -> Unicode.Scalar {
        var result: UInt32 = 0
        var count = 0
        while count < 3, let scalar = peek(), let digit = Self.digitValue(scalar, radix: 8) {
            result = result << 3 | UInt32(truncatingIfNeeded: digit)
            count += 1
            advance()
        }
        guard result <= 0o377 else {
            throw diagnostics.syntaxError(at: escapeStart, "octal escape '\(text(escapeStart, index))' is out of range (at most \\377)")
        }
        return Unicode.Scalar(UInt8(truncatingIfNeeded: result))
    }

    // MARK: - Format specifiers

    private static let integerLengths: Set<String> = ["", "h", "hh", "l", "ll", "q", "z", "t", "j"]
    private static let doubleLengths: Set<String> = ["", "l", "L"]

    /// `%@`, `%K`, `%d` (`%i %u` with `h hh l ll q z t j`), `%f` (`%e %g` with `l L`).
    private mutating func lexSpecifier() throws(PersistError) -> Token {
        let start = index
        advance()
        if peekIs("@") {
            advance()
            let (argumentIndex, _) = try takeArgument(specifierStart: start)
            return Token(kind: .argument(argumentIndex), start: start, end: index)
        }
        if peekIs("K") {
            advance()
            let (argumentIndex, value) = try takeArgument(specifierStart: start)
            let key: String
            if let string = value as? String {
                key = string
            } else if let substring = value as? Substring {
                key = String(substring)
            } else {
                throw diagnostics.argumentError(at: start, "%K needs a String (a key), but arguments[\(argumentIndex)] is \(PredicateFormatDiagnostics.describe(value))")
            }
            guard !key.isEmpty else {
                throw diagnostics.argumentError(at: start, "%K needs a key, but arguments[\(argumentIndex)] is an empty string")
            }
            return Token(kind: .key(key), start: start, end: index)
        }

        let lengthStart = index
        while let scalar = peek(), "hlqztjL".unicodeScalars.contains(scalar), index &- lengthStart < 2 { advance() }
        let length = text(lengthStart, index)
        guard let conversion = peek() else {
            throw diagnostics.syntaxError(at: start, "incomplete format specifier '\(text(start, index))'")
        }
        advance()
        let specifier = text(start, index)
        let isInteger = (conversion == "d" || conversion == "i" || conversion == "u") && Self.integerLengths.contains(length)
        let isDouble = (conversion == "f" || conversion == "e" || conversion == "g") && Self.doubleLengths.contains(length)
        if isInteger {
            let (argumentIndex, value) = try takeArgument(specifierStart: start)
            guard let integer = value as? any BinaryInteger else {
                throw diagnostics.argumentError(at: start, "\(specifier) needs an integer, but arguments[\(argumentIndex)] is \(PredicateFormatDiagnostics.describe(value))")
            }
            guard let converted = Int64(exactly: integer) else {
                throw diagnostics.argumentError(at: start, "arguments[\(argumentIndex)] for \(specifier) (\(integer)) does not fit in a 64-bit integer")
            }
            return Token(kind: .integer(converted), start: start, end: index)
        }
        if isDouble {
            let (argumentIndex, value) = try takeArgument(specifierStart: start)
            guard let floating = value as? any BinaryFloatingPoint else {
                throw diagnostics.argumentError(at: start, "\(specifier) needs a floating-point number (Double or Float), but arguments[\(argumentIndex)] is \(PredicateFormatDiagnostics.describe(value))")
            }
            return Token(kind: .double(Double(floating)), start: start, end: index)
        }
        throw diagnostics.syntaxError(at: start, "unknown format specifier '\(specifier)' (expected %@, %K, %d, %i, %u, %ld, %lld, %lu, %f or %lf)")
    }

    /// The index and value of the next argument, or an error naming the specifier when there is none.
    private mutating func takeArgument(specifierStart: Int) throws(PersistError) -> (Int, Any) {
        let argumentIndex = argumentsUsed
        guard argumentIndex >= 0, argumentIndex < arguments.count else {
            let given = arguments.count == 1 ? "1 argument was" : "\(arguments.count) arguments were"
            throw diagnostics.argumentError(at: specifierStart, "'\(text(specifierStart, index))' has no argument: \(given) given for \(argumentIndex &+ 1) or more specifiers")
        }
        argumentsUsed = argumentIndex &+ 1
        return (argumentIndex, arguments[argumentIndex])
    }
}
