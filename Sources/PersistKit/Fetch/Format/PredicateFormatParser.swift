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
/// operand     := term (("+" | "-") term)*
/// term        := factor (("*" | "/") factor)*
/// factor      := ("-" | "+")* (atom | "(" operand ")")
/// atom        := keyPath | "%K" | value | variable
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
    /// The deepest nesting of parentheses and aggregates accepted: as deep as AND/OR groups may
    /// nest (each level of groups needs its parentheses). Both are parsed with explicit stacks.
    static let maximumNesting = PredicateNode.maximumNesting

    /// Parses `format`, substituting arguments: `%@` becomes `.argument(index:)` (the lead looks the value up later),
    /// `%K` takes a key name from `arguments[i]` (must be a String, else invalidPredicate error),
    /// `%d %i %ld %lld %u %lu` take integer arguments (any BinaryInteger -> Int64, else error),
    /// `%f %lf` take Double/Float arguments. Too few arguments: error naming the position. Too many: error too.
    static func parse(_ format: String, arguments: [Any]) throws -> PredicateFormatExpression {
        var parser = PredicateFormatParser(format: format, arguments: arguments)
        return try parser.parsePredicate()
    }

    typealias Token = PredicateFormatLexer.Token

    /// A parsed subtree and how deeply it nests AND/OR groups.
    struct Node {
        var expression: PredicateFormatExpression
        var nesting: PredicateNesting
    }

    private static let unsupportedWords: Set<String> = [
        "SELF", "FUNCTION", "CAST", "ANYKEY",
    ]
    private static let reservedWords: Set<String> = [
        "AND", "OR", "NOT", "IN", "LIKE", "CONTAINS", "BEGINSWITH", "ENDSWITH", "MATCHES", "BETWEEN",
        "TRUEPREDICATE", "FALSEPREDICATE", "NIL", "NULL", "YES", "NO", "TRUE", "FALSE",
    ]
    private static let quantifiers: [String: PredicateFormatQuantifier] = ["ANY": .any, "SOME": .any, "ALL": .all, "NONE": .none]
    /// The deepest nesting of SUBQUERY expressions accepted.
    static let maximumSubqueryNesting = 8

    private let scalars: [Unicode.Scalar]
    private let diagnostics: PredicateFormatDiagnostics
    private var lexer: PredicateFormatLexer
    private let argumentCount: Int
    private(set) var current: Token
    var nesting = 0
    private var subqueryNesting = 0

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

    mutating func advance() throws(PersistError) {
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
    func describe(_ token: Token) -> String {
        if case .end = token.kind { return "end of format" }
        let lower = max(0, min(token.start, scalars.count))
        let upper = max(lower, min(token.end, scalars.count))
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[lower..<upper])
        var text = String(view)
        if text.count > 40 { text = String(text.prefix(40)) + "…" }
        return "'\(text)'"
    }

    func error(_ token: Token, _ problem: String) -> PersistError {
        diagnostics.syntaxError(at: token.start, problem)
    }

    func position(_ token: Token) -> Int {
        diagnostics.characterOffset(token.start)
    }

    mutating func enterNesting(_ token: Token) throws(PersistError) {
        nesting &+= 1
        if nesting > Self.maximumNesting {
            throw error(token, "predicate is nested too deeply (more than \(Self.maximumNesting) levels of parentheses or braces)")
        }
    }

    // MARK: - Predicates

    /// A parenthesized group being parsed (or the whole format): its OR of ANDs so far.
    struct GroupFrame {
        /// The '(' that opened the group; nil for the whole format.
        let open: Token?
        /// An odd number of NOTs precedes the '('.
        let negated: Bool
        /// The '(' opened a term (not a SUBQUERY's predicate): it may turn out to open
        /// arithmetic instead, `(budget - spent) < 0` (see `parseComputed`).
        var opensTerm = false
        var alternatives = GroupBuilder(kind: .or)
        var conjuncts = GroupBuilder(kind: .and)
    }

    /// The terms of one AND or OR as they are parsed, and their nesting.
    struct GroupBuilder {
        let kind: PredicateNesting.Kind
        var terms: [Node] = []
        /// The operator before the term being parsed (where a nesting error is reported).
        var pendingOperator: Token?
        /// The deepest term, counted as a child of this group.
        var deepest = 0

        init(kind: PredicateNesting.Kind) {
            self.kind = kind
        }

        /// The group so far, as one node (the term itself when there is one).
        var node: Node? {
            guard terms.count > 1 else { return terms.first }
            let expressions = terms.map(\.expression)
            return Node(expression: kind == .or ? .or(expressions) : .and(expressions),
                        nesting: PredicateNesting.group(kind, terms.lazy.map(\.nesting)))
        }
    }

    /// Parses the whole format with an explicit stack of parenthesized groups, so that nesting
    /// costs no thread stack (the parse functions' frames are large in debug builds).
    private mutating func parsePredicate() throws(PersistError) -> PredicateFormatExpression {
        try advance()
        if case .end = current.kind {
            throw error(current, "the format is empty")
        }
        let result = try parseGroups(GroupFrame(open: nil, negated: false))
        return try finish(result)
    }

    /// Parses terms joined by AND and OR, and parenthesized groups, until `root` closes: at the
    /// end of the format (the caller checks it is), or at the ')' matching `root.open` (a
    /// SUBQUERY's predicate), which it consumes.
    private mutating func parseGroups(_ root: GroupFrame) throws(PersistError) -> Node {
        var frames = [root]
        while true {
            let negated = try parseNots()
            if case .leftParen = current.kind {
                let open = current
                try enterNesting(open)
                try advance()
                if case .rightParen = current.kind {
                    throw error(current, "expected a predicate inside the parentheses, found ')'")
                }
                frames.append(GroupFrame(open: open, negated: negated, opensTerm: true))
                continue
            }
            var term = try parsePrimary(frames: &frames, closesGroups: !negated)
            if negated { term = Self.negate(term) }
            // Adds the term, then closes the groups and parentheses the next token ends.
            while let top = frames.indices.last {
                try add(term, to: &frames[top].conjuncts)
                if isOperator(.and) {
                    frames[top].conjuncts.pendingOperator = current
                    try advance()
                    break
                }
                if let conjunction = frames[top].conjuncts.node {
                    try add(conjunction, to: &frames[top].alternatives)
                }
                frames[top].conjuncts = GroupBuilder(kind: .and)
                if isOperator(.or) {
                    frames[top].alternatives.pendingOperator = current
                    try advance()
                    break
                }
                let frame = frames.removeLast()
                guard let result = frame.alternatives.node else {
                    throw error(current, "expected a predicate, found \(describe(current))")
                }
                guard let open = frame.open else { return result }
                guard case .rightParen = current.kind else {
                    if case .end = current.kind {
                        throw error(current, "unbalanced parentheses: expected ')' to close the '(' at position \(position(open))")
                    }
                    throw error(current, "expected ')' to close the '(' at position \(position(open)), found \(describe(current))")
                }
                nesting &-= 1
                try advance()
                term = frame.negated ? Self.negate(result) : result
                if frames.isEmpty { return term }
            }
        }
    }

    /// The end of the format, after the whole predicate.
    private func finish(_ result: Node) throws(PersistError) -> PredicateFormatExpression {
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
        return result.expression
    }

    /// Adds a term to a group, refusing it when the group would nest too deeply.
    private func add(_ term: Node, to group: inout GroupBuilder) throws(PersistError) {
        group.terms.append(term)
        group.deepest = max(group.deepest, term.nesting.depth(inside: group.kind))
        guard group.terms.count > 1, let operatorToken = group.pendingOperator else { return }
        if group.deepest + 1 > PredicateNode.maximumNesting {
            throw error(operatorToken, "predicate is nested too deeply (AND/OR groups more than \(PredicateNode.maximumNesting) levels deep)")
        }
    }

    /// Whether the current token is `AND`/`&&` (`.and`) or `OR`/`||` (`.or`).
    private func isOperator(_ kind: PredicateNesting.Kind) -> Bool {
        switch current.kind {
        case .and: return kind == .and
        case .or: return kind == .or
        default: return currentWord == (kind == .or ? "OR" : "AND")
        }
    }

    /// Skips `NOT`s and `!`s; true when there was an odd number (they cancel in pairs).
    private mutating func parseNots() throws(PersistError) -> Bool {
        var negated = false
        while true {
            let isNot: Bool
            if case .not = current.kind { isNot = true } else { isNot = currentWord == "NOT" }
            guard isNot else { return negated }
            negated.toggle()
            try advance()
        }
    }

    /// `NOT` applied to a term (`NOT (NOT a)` stays as written; only NOTs in a row cancel).
    private static func negate(_ node: Node) -> Node {
        Node(expression: .not(node.expression), nesting: node.nesting.negated)
    }

    /// `TRUEPREDICATE`, `FALSEPREDICATE` or a comparison (parentheses are handled by the caller).
    private mutating func parsePrimary(frames: inout [GroupFrame], closesGroups: Bool) throws(PersistError) -> Node {
        switch currentWord {
        case "TRUEPREDICATE":
            try advance()
            return Node(expression: .truePredicate, nesting: .leaf)
        case "FALSEPREDICATE":
            try advance()
            return Node(expression: .falsePredicate, nesting: .leaf)
        default:
            return try parseComparison(frames: &frames, closesGroups: closesGroups)
        }
    }

    // MARK: - Comparisons

    private mutating func parseComparison(frames: inout [GroupFrame], closesGroups: Bool) throws(PersistError) -> Node {
        let lhsToken = current
        let lhs = try parseComputed(after: nil, frames: &frames, closesGroups: closesGroups)
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

        var noFrames: [GroupFrame] = []
        let rhs = try parseComputed(after: operatorToken, frames: &noFrames, closesGroups: false)
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
    mutating func parseOperand(after operatorToken: Token?) throws(PersistError) -> PredicateFormatOperand {
        let token = current
        let context = operatorToken.map { " after \(describe($0))" } ?? ""
        switch token.kind {
        case .key(let key):
            try advance()
            return .key(key, position: position(token))
        case .variableKey(let variable, let path):
            try advance()
            return .variableKey(variable: variable, path: path, position: position(token))
        case .word(let word):
            if let value = keywordValue {
                try advance()
                return .value(value, position: position(token))
            }
            if let quantifier = currentWord.flatMap({ Self.quantifiers[$0] }) {
                return try parseQuantified(quantifier, context: context)
            }
            if currentWord == "SUBQUERY" {
                return try parseSubquery()
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

    /// `ANY tags.name` (the current token is the quantifier): the key path that follows.
    private mutating func parseQuantified(_ quantifier: PredicateFormatQuantifier,
                                          context: String) throws(PersistError) -> PredicateFormatOperand {
        let token = current
        try advance()
        let keyToken = current
        switch current.kind {
        case .key(let key):
            try advance()
            return .quantified(quantifier, .key(key, position: position(keyToken)), position: position(token))
        case .variableKey(let variable, let path):
            try advance()
            return .quantified(quantifier, .variableKey(variable: variable, path: path, position: position(keyToken)),
                               position: position(token))
        case .word(let word) where keywordValue == nil && !Self.reservedWords.contains(currentWord ?? "")
            && Self.quantifiers[currentWord ?? ""] == nil && currentWord != "SUBQUERY":
            try advance()
            return .quantified(quantifier, .key(word, position: position(keyToken)), position: position(token))
        default:
            throw error(current, "expected a key path after \(describe(token))\(context), found \(describe(current))")
        }
    }

    /// `SUBQUERY(collection, $variable, predicate).@count` (the current token is `SUBQUERY`).
    private mutating func parseSubquery() throws(PersistError) -> PredicateFormatOperand {
        let token = current
        try advance()
        guard case .leftParen = current.kind else {
            throw error(current, "expected '(' after SUBQUERY, found \(describe(current))")
        }
        let open = current
        try enterNesting(open)
        subqueryNesting += 1
        defer { subqueryNesting -= 1 }
        if subqueryNesting > Self.maximumSubqueryNesting {
            throw error(token, "SUBQUERY expressions are nested too deeply (more than \(Self.maximumSubqueryNesting))")
        }
        try advance()
        let collectionToken = current
        let collection: PredicateFormatOperand
        switch current.kind {
        case .key(let key): collection = .key(key, position: position(current))
        case .variableKey(let variable, let path): collection = .variableKey(variable: variable, path: path, position: position(current))
        case .word(let word) where keywordValue == nil && !Self.reservedWords.contains(currentWord ?? ""):
            collection = .key(word, position: position(current))
        default:
            throw error(current, "expected the key path of a to-many relationship as SUBQUERY's first argument, found \(describe(current))")
        }
        try advance()
        try expectComma(after: collectionToken)
        guard case .variable(let variable) = current.kind else {
            throw error(current, "expected a variable ($x) as SUBQUERY's second argument, found \(describe(current))")
        }
        let variableToken = current
        try advance()
        try expectComma(after: variableToken)
        let predicate = try parseGroups(GroupFrame(open: open, negated: false))
        guard case .key(let suffix) = current.kind, suffix == "@count" else {
            throw error(current, "expected .@count after SUBQUERY(...) (the number of objects that match), found \(describe(current))")
        }
        try advance()
        return .subqueryCount(collection: collection, variable: variable, predicate: predicate.expression, position: position(token))
    }

    private mutating func expectComma(after token: Token) throws(PersistError) {
        guard case .comma = current.kind else {
            throw error(current, "expected ',' after \(describe(token)) in SUBQUERY, found \(describe(current))")
        }
        try advance()
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

    /// `{}` or `{value, value, ...}`, nested with an explicit stack; the current token is `{`.
    private mutating func parseAggregate() throws(PersistError) -> PredicateFormatValue {
        var open: [(brace: Token, elements: [PredicateFormatValue])] = []
        while true {
            var value: PredicateFormatValue
            if case .leftBrace = current.kind {
                try enterNesting(current)
                open.append((current, []))
                try advance()
                guard case .rightBrace = current.kind else { continue }
                value = .list([])
                nesting &-= 1
                open.removeLast()
                try advance()
            } else {
                value = try parseAggregateElement()
            }
            // Adds the value, then closes the aggregates the next tokens end.
            while let top = open.indices.last {
                open[top].elements.append(value)
                switch current.kind {
                case .comma:
                    try advance()
                case .rightBrace:
                    nesting &-= 1
                    try advance()
                    value = .list(open.removeLast().elements)
                    continue
                case .end:
                    throw error(current, "expected ',' or '}' to close the '{' at position \(position(open[top].brace)), found end of format")
                default:
                    throw error(current, "expected ',' or '}' in the aggregate opened at position \(position(open[top].brace)), found \(describe(current))")
                }
                break
            }
            if open.isEmpty { return value }
        }
    }

    /// A constant inside an aggregate (a nested `{` is handled by the caller).
    private mutating func parseAggregateElement() throws(PersistError) -> PredicateFormatValue {
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
