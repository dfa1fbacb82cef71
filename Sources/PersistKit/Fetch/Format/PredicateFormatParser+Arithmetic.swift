// Arithmetic in format strings: `budget - spent < 0`, `due < %@ + 86400`, `(a + b) * 2 >= c`,
// with `*` and `/` before `+` and `-`, left to right, and unary minus before both.
extension PredicateFormatParser {
    /// An operator or parenthesis waiting for its operands.
    private enum Pending {
        case binary(ArithmeticOperator, position: Int)
        case negate(position: Int)
        case parenthesis(Token)
    }

    /// An operand with arithmetic (operator precedence, with an explicit stack: parentheses
    /// nest up to ``maximumNesting`` levels). `after` is the operator before it, for messages.
    ///
    /// A comparison's left side may start inside parentheses the caller took for a group of
    /// predicates (`(budget - spent) < 0`): when `closesGroups`, a `)` that closes no parenthesis
    /// of the operand closes the innermost of `frames` if that group is still empty, as an
    /// arithmetic parenthesis.
    mutating func parseComputed(after operatorToken: Token?, frames: inout [GroupFrame],
                                closesGroups: Bool) throws(PersistError) -> PredicateFormatOperand {
        var operands: [PredicateFormatOperand] = []
        var pending: [Pending] = []
        var operations = 0
        var before = operatorToken
        while true {
            // Signs and parentheses, then the operand.
            signs: while true {
                switch current.kind {
                case .arithmetic(.subtract):
                    try count(&operations, at: current)
                    pending.append(.negate(position: position(current)))
                case .arithmetic(.add):
                    break
                case .leftParen:
                    try enterNesting(current)
                    pending.append(.parenthesis(current))
                default:
                    break signs
                }
                before = current
                try advance()
            }
            operands.append(try parseOperand(after: before))
            // Closing parentheses, then the next operator or the end of the operand.
            while case .rightParen = current.kind {
                Self.reduce(&operands, &pending) { _ in true }
                if case .parenthesis? = pending.last {
                    pending.removeLast()
                } else if closesGroups, let top = frames.last, top.opensTerm, !top.negated,
                          top.conjuncts.terms.isEmpty, top.alternatives.terms.isEmpty {
                    frames.removeLast()
                } else {
                    break
                }
                nesting &-= 1
                try advance()
            }
            guard case .arithmetic(let op) = current.kind else { break }
            try count(&operations, at: current)
            Self.reduce(&operands, &pending) { $0 >= op.precedence }
            pending.append(.binary(op, position: position(current)))
            before = current
            try advance()
        }
        Self.reduce(&operands, &pending) { _ in true }
        if case .parenthesis(let open)? = pending.last {
            throw error(current, "expected ')' to close the '(' at position \(position(open)), found \(describe(current))")
        }
        guard let operand = operands.last else { throw error(current, "expected a key or value, found \(describe(current))") }
        return operand
    }

    private func count(_ operations: inout Int, at token: Token) throws(PersistError) {
        operations += 1
        if operations > PredicateValue.maximumOperations {
            throw error(token, "the arithmetic has more than \(PredicateValue.maximumOperations) operators")
        }
    }

    /// Applies the pending operators down to the nearest parenthesis: unary minus always, a
    /// binary operator when `applies` its precedence.
    private static func reduce(_ operands: inout [PredicateFormatOperand], _ pending: inout [Pending],
                               while applies: (Int) -> Bool) {
        while let top = pending.last {
            switch top {
            case .parenthesis:
                return
            case .negate(let position):
                guard let operand = operands.popLast() else { return }
                operands.append(.negated(operand, position: position))
            case .binary(let op, let position):
                guard applies(op.precedence), operands.count >= 2, let rhs = operands.popLast(), let lhs = operands.popLast() else { return }
                operands.append(.arithmetic(op, lhs, rhs, position: position))
            }
            pending.removeLast()
        }
    }
}
