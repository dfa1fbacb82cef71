extension PredicateValue {
    /// What a side of a comparison holds, as the attribute types say.
    enum Kind: String, Sendable {
        /// nil: compares with anything, and computes nil.
        case null = "nil"
        case number = "a number"
        case boolean = "a Boolean"
        case date = "a date"
        case string = "a string"
        case bytes = "bytes"

        init(_ type: AttributeType) {
            switch type {
            case .boolean: self = .boolean
            case .integer, .integer64, .integer32, .integer16, .double, .float: self = .number
            case .date: self = .date
            case .string, .uri, .json: self = .string
            case .binary, .uuid: self = .bytes
            }
        }

        func comparable(with other: Kind) -> Bool {
            self == other || self == .null || other == .null || Set([self, other]) == [.number, .boolean]
        }

        /// The kind `a op b` computes: numbers from numbers; a date plus or minus a number of
        /// seconds is a date, a date minus a date the seconds between them. Nil goes with anything.
        static func of(_ op: ArithmeticOperator, _ a: Kind, _ b: Kind) -> Result<Kind, Problem> {
            for kind in [a, b] where kind != .number && kind != .date && kind != .null {
                return .failure(Problem(message: "\(op.symbol) needs numbers or dates, not \(kind.rawValue)"))
            }
            switch (op, a, b) {
            case (_, .null, .null): return .success(.null)
            case (_, .number, .number), (_, .number, .null), (_, .null, .number): return .success(.number)
            case (.add, .date, .number), (.add, .number, .date), (.add, .date, .null), (.add, .null, .date),
                 (.subtract, .date, .number), (.subtract, .date, .null):
                return .success(.date)
            case (.subtract, .date, .date), (.subtract, .null, .date): return .success(.number)
            default:
                let first = a.rawValue.prefix(1).uppercased() + a.rawValue.dropFirst()
                return .failure(Problem(message: "\(first) \(op.symbol) \(b.rawValue) is not defined: a date plus or minus seconds is a date, "
                                        + "a date minus a date is seconds"))
            }
        }

        /// Why two kinds do not compute.
        struct Problem: Error {
            let message: String
        }
    }
}
