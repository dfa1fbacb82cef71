/// Parses Core Data-style predicate format strings into a `PredicateFormatExpression`.
///
/// Grammar (keywords are case-insensitive, ASCII only):
///
/// ```
/// predicate   := or END
/// or          := and (("OR" | "||") and)*
/// and         := not (("AND" | "&&") not)*
/// not         := ("NOT" | "!")* primary
/// primary     := "TRUEPREDICATE" | "FALSEPREDICATE" | "(" or ")" | comparison
/// comparison  := operand operator options? operand
///              | operand "BETWEEN" options? ("{" value "," value "}" | "%@" | variable)
/// operator    := "==" | "=" | "!=" | "<>" | "<" | "<=" | "=<" | ">" | ">=" | "=>"
///              | "CONTAINS" | "BEGINSWITH" | "ENDSWITH" | "LIKE" | "MATCHES" | "IN"
/// options     := "[" ("c" | "d")+ "]"
/// operand     := keyPath | "%K" | value | variable
/// value       := string | number | "nil" | "NULL" | "YES" | "TRUE" | "NO" | "FALSE"
///              | "%@" | "%d"... | "%f"... | "{" (value ("," value)*)? "}"
/// variable    := "$" identifier
/// keyPath     := "#"? identifier ("." "#"? identifier)*
/// ```
///
/// - `a AND b AND c` is one `.and` node of three terms (likewise OR); a parenthesized group is
///   a child node, as written.
/// - An even number of `NOT`s cancels out; an odd number is one `.not`.
/// - `a BETWEEN {lo, hi}` becomes `(a >= lo AND a <= hi)`, both comparisons carrying the
///   position of `BETWEEN` and its options. `a BETWEEN %@` (or `$VAR`) stays one comparison with
///   operator `.between`: its bounds are known only when the argument is looked up.
/// - Operands keep the order they were written in (`5 < count` stays value-then-key).
/// - Positions, in the tree and in error messages, are offsets in `Character`s (grapheme
///   clusters) from the start of the format; for ASCII formats they are byte offsets.
/// - `%@` becomes `.argument(index:)`, where `index` is the position of the argument in the
///   `arguments` array (every specifier, `%K` and `%d` included, consumes one argument in order).
/// - Parentheses and aggregates nest at most ``maximumNesting`` levels, and AND/OR groups at most
///   ``PredicateNode/maximumNesting`` levels (counted as ``PredicateNesting`` does), so hostile
///   input cannot exhaust the stack; terms in a group and `NOT`s in a row are not limited.
struct PredicateFormatParser {
    /// The deepest nesting of parentheses and aggregates accepted.
    static let maximumNesting = 100

    /// Parses `format`, substituting arguments: `%@` becomes `.argument(index:)` (the lead looks the value up later),
    /// `%K` takes a key name from `arguments[i]` (must be a String, else invalidPredicate error),
    /// `%d %i %ld %lld %u %lu` take integer arguments (any BinaryInteger -> Int64, else error),
    /// `%f %lf` take Double/Float arguments. Too few arguments: error naming the position. Too many: error too.
    static func parse(_ format: String, arguments: [Any]) throws -> PredicateFormatExpression {
        var parser = PredicateFormatParser(format: format, arguments: arguments)
        return try parser.parsePredicate()
    }

    private typealias Token = PredicateFormatLexer.Token

    /// A parsed subtree and how deeply it nests AND/OR groups.
    private struct Node {
        var expression: PredicateFormatExpression
        var nesting: PredicateNesting
    }

    private static let unsupportedWords: Set<String> = [
        "ANY", "ALL", "SOME", "NONE", "SUBQUERY", "SELF", "FUNCTION", "CAST", "ANYKEY",
    ]
    private static let reservedWords: Set<String> = [
        "AND", "OR", "NOT", "IN", "LIKE", "CONTAINS", "BEGINSWITH", "ENDSWITH", "MATCHES", "BETWEEN",
        "TRUEPREDICATE", "FALSEPREDICATE", "NIL", "NULL", "YES", "NO", "TRUE", "FALSE",
    ]

    private let scalars: [Unicode.Scalar]
    private let diagnostics: PredicateFormatDiagnostics
    private var lexer: PredicateFormatLexer
    private let argumentCount: Int
    private var current: Token
    private var nesting = 0

    private init(format: String, arguments: [Any]) {
        let scalars = Array(format.unicodeScalars)
        let diagnostics = PredicateFormatDiagnostics(format: format)
        self.scalars = scalars
        self.diagnostics = diagnostics
        self.lexer = PredicateFormatLexer(scalars: scalars, arguments: arguments, diagnostics: diagnostics)
        self.argumentCount = arguments.count
        self.current = Token(kind: .end, start: 0, end: 0)
    }

    // MARK: - Tokens

    private mutating func advance() throws(PersistError) {
        current = try lexer.next()
    }

    /// The keyword `current` spells (upper-cased), if it is an unescaped single identifier.
    private var currentWord: String? {
        guard case .word(let word) = current.kind else { return nil }
        return Self.asciiUppercased(word)
    }

    private static func asciiUppercased(_ word: String) -> String {
        var view = String.UnicodeScalarView()
        for scalar in word.unicodeScalars {
            if scalar.value >= 0x61 && scalar.value <= 0x7A, let upper = Unicode.Scalar(scalar.value &- 0x20) {
                view.append(upper)
            } else {
                view.append(scalar)
            }
        }
        return String(view)
    }

    /// The text of a token as written, shortened if long, or "end of format".
    private func describe(_ token: Token) -> String {
        if case .end = token.kind { return "end of format" }
        let lower = max(0, min(token.start, scalars.count))
        let upper = max(lower, min(token.end, scalars.count))
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[lower..<upper])
        var text = String(view)
        if text.count > 40 { text = String(text.prefix(40)) + "…" }
        return "'\(text)'"
    }

    private func error(_ token: Token, _ problem: String) -> PersistError {
        diagnostics.syntaxError(at: token.start, problem)
    }

    private func position(_ token: Token) -> Int {
        diagnostics.characterOffset(token.start)
    }

    /// Checks a group's nesting as it grows; `token` is the operator that added the latest term.
    private func checkNesting(_ nesting: PredicateNesting, at token: Token) throws(PersistError) {
        if nesting.depth > PredicateNode.maximumNesting {
            throw error(token, "predicate is nested too deeply (AND/OR groups more than \(PredicateNode.maximumNesting) levels deep)")
        }
    }

    private mutating func enterNesting(_ token: Token) throws(PersistError) {
        nesting &+= 1
        if nesting > Self.maximumNesting {
            throw error(token, "predicate is nested too deeply (more than \(Self.maximumNesting) levels of parentheses or braces)")
        }
    }

    // MARK: - Predicates

    private mutating func parsePredicate() throws(PersistError) -> PredicateFormatExpression {
        try advance()
        if case .end = current.kind {
            throw error(current, "the format is empty")
        }
        let node = try parseGroup(.or)
        switch current.kind {
        case .end:
            break
        case .rightParen:
            throw error(current, "unbalanced parentheses: ')' has no matching '('")
        default:
            throw error(current, "expected AND, OR or the end of the format, found \(describe(current))")
        }
        let used = lexer.argumentsUsed
        if used < argumentCount {
            throw diagnostics.argumentError(at: scalars.count, "\(argumentCount) arguments were given but the format uses only \(used)")
        }
        return node.expression
    }

    /// `term (op term)*` for OR (terms are ANDs) or AND (terms are NOTs), gathered into one node.
    private mutating func parseGroup(_ kind: PredicateNesting.Kind) throws(PersistError) -> Node {
        let first = try parseTerm(of: kind)
        var terms: [PredicateFormatExpression] = []
        var nesting = PredicateNesting.group(kind, [first.nesting])
        while true {
            let isOperator: Bool
            switch current.kind {
            case .or: isOperator = kind == .or
            case .and: isOperator = kind == .and
            default: isOperator = currentWord == (kind == .or ? "OR" : "AND")
            }
            guard isOperator else { break }
            let operatorToken = current
            try advance()
            let term = try parseTerm(of: kind)
            if terms.isEmpty { terms.append(first.expression) }
            terms.append(term.expression)
            nesting = PredicateNesting.group(kind, [nesting, term.nesting])
            try checkNesting(nesting, at: operatorToken)
        }
        if terms.isEmpty { return first }
        return Node(expression: kind == .or ? .or(terms) : .and(terms), nesting: nesting)
    }

    private mutating func parseTerm(of kind: PredicateNesting.Kind) throws(PersistError) -> Node {
        if kind == .or { return try parseGroup(.and) }
        return try parseNot()
    }

    private mutating func parseNot() throws(PersistError) -> Node {
        var negated = false
        while true {
            let isNot: Bool
            if case .not = current.kind { isNot = true } else { isNot = currentWord == "NOT" }
            guard isNot else { break }
            negated.toggle()
            try advance()
        }
        let node = try parsePrimary()
        return negated ? Node(expression: .not(node.expression), nesting: node.nesting.negated) : node
    }

    private mutating func parsePrimary() throws(PersistError) -> Node {
        if case .leftParen = current.kind {
            let open = current
            try enterNesting(open)
            try advance()
            if case .rightParen = current.kind {
                throw error(current, "expected a predicate inside the parentheses, found ')'")
            }
            let node = try parseGroup(.or)
            guard case .rightParen = current.kind else {
                if case .end = current.kind {
                    throw error(current, "unbalanced parentheses: expected ')' to close the '(' at position \(position(open))")
                }
                throw error(current, "expected ')' to close the '(' at position \(position(open)), found \(describe(current))")
            }
            nesting &-= 1
            try advance()
            return node
        }
        switch currentWord {
        case "TRUEPREDICATE":
            try advance()
            return Node(expression: .truePredicate, nesting: .leaf)
        case "FALSEPREDICATE":
            try advance()
            return Node(expression: .falsePredicate, nesting: .leaf)
        default:
            return try parseComparison()
        }
    }

    // MARK: - Comparisons

    private mutating func parseComparison() throws(PersistError) -> Node {
        let lhsToken = current
        let lhs = try parseOperand(after: nil)
        let operatorToken = current
        var isBetween = false
        let op: PredicateFormatOperator
        switch current.kind {
        case .comparison(let symbol):
            op = symbol
        case .word:
            switch currentWord {
            case "CONTAINS": op = .contains
            case "BEGINSWITH": op = .beginsWith
            case "ENDSWITH": op = .endsWith
            case "LIKE": op = .like
            case "MATCHES": op = .matches
            case "IN": op = .in
            case "BETWEEN":
                op = .greaterOrEqual
                isBetween = true
            case let word? where Self.unsupportedWords.contains(word):
                throw error(current, "\(describe(current)) is not supported in predicate formats")
            default:
                throw error(current, "expected a comparison operator after \(describe(lhsToken)), found \(describe(current))")
            }
        default:
            throw error(current, "expected a comparison operator after \(describe(lhsToken)), found \(describe(current))")
        }
        try advance()
        let options = try parseOptions()
        let operatorPosition = position(operatorToken)

        if isBetween {
            switch current.kind {
            case .argument, .variable:
                let bounds = try parseOperand(after: operatorToken)
                return Node(expression: .comparison(lhs: lhs, op: .between, options: options, rhs: bounds,
                                                    position: operatorPosition), nesting: .leaf)
            case .leftBrace:
                break
            default:
                throw error(current, "BETWEEN needs two bounds written as {low, high}, or an array argument %@, found \(describe(current))")
            }
            let boundsToken = current
            guard case .value(.list(let bounds), let boundsPosition) = try parseOperand(after: operatorToken),
                  bounds.count == 2, let low = bounds.first, let high = bounds.last else {
                throw error(boundsToken, "BETWEEN needs exactly two bounds, as in {low, high}")
            }
            let greater = PredicateFormatExpression.comparison(
                lhs: lhs, op: .greaterOrEqual, options: options, rhs: .value(low, position: boundsPosition),
                position: operatorPosition)
            let less = PredicateFormatExpression.comparison(
                lhs: lhs, op: .lessOrEqual, options: options, rhs: .value(high, position: boundsPosition),
                position: operatorPosition)
            return Node(expression: .and([greater, less]), nesting: PredicateNesting(depth: 1, kind: .and))
        }

        let rhs = try parseOperand(after: operatorToken)
        return Node(expression: .comparison(lhs: lhs, op: op, options: options, rhs: rhs, position: operatorPosition),
                    nesting: .leaf)
    }

    /// `[c]`, `[d]`, `[cd]`, `[dc]` after an operator, or nothing.
    private mutating func parseOptions() throws(PersistError) -> StringComparisonOptions {
        guard case .leftBracket = current.kind else { return [] }
        try advance()
        guard case .word(let letters) = current.kind else {
            throw error(current, "expected comparison options 'c' and/or 'd' after '[', found \(describe(current))")
        }
        var options: StringComparisonOptions = []
        var offset = current.start
        for scalar in letters.unicodeScalars {
            switch scalar {
            case "c", "C": options.insert(.caseInsensitive)
            case "d", "D": options.insert(.diacriticInsensitive)
            default:
                throw diagnostics.syntaxError(at: offset, "unknown comparison option \(PredicateFormatDiagnostics.describe(scalar)) (expected 'c' or 'd')")
            }
            offset &+= 1
        }
        try advance()
        guard case .rightBracket = current.kind else {
            throw error(current, "expected ']' after comparison options, found \(describe(current))")
        }
        try advance()
        return options
    }

    // MARK: - Operands

    /// A key or a value. `after` is the operator before it, for messages (nil for a left side).
    private mutating func parseOperand(after operatorToken: Token?) throws(PersistError) -> PredicateFormatOperand {
        let token = current
        let context = operatorToken.map { " after \(describe($0))" } ?? ""
        switch token.kind {
        case .key(let key):
            try advance()
            return .key(key, position: position(token))
        case .word(let word):
            if let value = keywordValue {
                try advance()
                return .value(value, position: position(token))
            }
            if let upper = currentWord {
                if Self.unsupportedWords.contains(upper) {
                    throw error(token, "\(describe(token)) is not supported in predicate formats")
                }
                if Self.reservedWords.contains(upper) {
                    throw error(token, "expected a key or value\(context), found the reserved word \(describe(token)) (write '#\(word)' to use it as a key)")
                }
            }
            try advance()
            return .key(word, position: position(token))
        case .leftBrace:
            return .value(try parseAggregate(), position: position(token))
        default:
            if let value = try literalValue() {
                return .value(value, position: position(token))
            }
            throw error(token, "expected a key or value\(context), found \(describe(token))")
        }
    }

    /// `nil`, `NULL`, `YES`, `TRUE`, `NO`, `FALSE` for the current token.
    private var keywordValue: PredicateFormatValue? {
        switch currentWord {
        case "NIL", "NULL": return .null
        case "YES", "TRUE": return .bool(true)
        case "NO", "FALSE": return .bool(false)
        default: return nil
        }
    }

    /// The current token as a string, number or `%@` value (consumed), or nil (not consumed).
    private mutating func literalValue() throws(PersistError) -> PredicateFormatValue? {
        let value: PredicateFormatValue
        switch current.kind {
        case .string(let string): value = .string(string)
        case .integer(let integer): value = .integer(integer)
        case .double(let double): value = .double(double)
        case .argument(let index): value = .argument(index: index)
        case .variable(let name): value = .variable(name)
        default: return nil
        }
        try advance()
        return value
    }

    /// `{}` or `{value, value, ...}`; the current token is `{`.
    private mutating func parseAggregate() throws(PersistError) -> PredicateFormatValue {
        let open = current
        try enterNesting(open)
        try advance()
        var elements: [PredicateFormatValue] = []
        if case .rightBrace = current.kind {
            nesting &-= 1
            try advance()
            return .list(elements)
        }
        while true {
            elements.append(try parseAggregateElement())
            switch current.kind {
            case .comma:
                try advance()
            case .rightBrace:
                nesting &-= 1
                try advance()
                return .list(elements)
            case .end:
                throw error(current, "expected ',' or '}' to close the '{' at position \(position(open)), found end of format")
            default:
                throw error(current, "expected ',' or '}' in the aggregate opened at position \(position(open)), found \(describe(current))")
            }
        }
    }

    private mutating func parseAggregateElement() throws(PersistError) -> PredicateFormatValue {
        if case .leftBrace = current.kind { return try parseAggregate() }
        if case .variable = current.kind {
            throw error(current, "an aggregate may hold only constants, found the variable \(describe(current)) (substitute the whole list instead)")
        }
        if let value = keywordValue {
            try advance()
            return value
        }
        if let value = try literalValue() { return value }
        switch current.kind {
        case .key, .word:
            throw error(current, "an aggregate may hold only constants, found the key \(describe(current))")
        default:
            throw error(current, "expected a value in the aggregate, found \(describe(current))")
        }
    }
}
