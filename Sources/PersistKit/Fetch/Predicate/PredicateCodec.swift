import PersistKitText
import Foundation

/// A compact binary form of a normalized predicate, so that SQL can hand a large predicate to
/// the SQL function `pk_predicate` as one bound blob (see ``PredicateFunction``).
///
/// Layout (integers little-endian): the attribute count (u32) and names (u32 length, UTF-8),
/// then the tree in prefix order. A node is a tag byte: 0/1 the constant false/true; 2 AND and
/// 3 OR (u32 count, then the children); 4 NOT (the child); 5 comparison (u32 attribute, u8
/// operator, value); 6 string operator (u32 attribute, u8 operator, u8 options, string); 7 IN
/// (u32 attribute, u32 count, values); 8 MATCHES (u32 attribute, u8 options, string); 9 two
/// computed values compared (u8 0 and the comparison operator, or u8 1, the text operator and
/// options; then both sides). A side is a tag byte: 0 key (u32 attribute), 1 constant (value),
/// 2 arithmetic (u8 operator, both operands), 3 unary minus (the operand). A value is
/// a tag byte: 0 NULL, 1 integer (8 bytes), 2 real (8 bytes, the bit pattern), 3 text and 4 blob
/// (u32 length, bytes).
///
/// Decoding checks every length and tag and never traps. Both ways use explicit stacks; groups
/// nested more than ``PredicateNode/maximumNesting`` + 1 levels (deeper than a normalized tree)
/// are damage.
enum PredicateCodec {
    /// Encodes a normalized predicate whose comparisons name `attributes`.
    static func encode(_ node: PredicateNode, attributes: [String]) throws -> Data {
        var writer = Writer()
        writer.u32(attributes.count)
        for name in attributes { writer.string(name) }
        let index = Dictionary(attributes.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        try writer.node(node, index)
        return Data(writer.bytes)
    }

    /// The attribute names and the tree of an encoded predicate.
    static func decode(_ bytes: UnsafeRawBufferPointer) throws -> (attributes: [String], node: PredicateNode) {
        var reader = Reader(bytes: bytes)
        let count = try reader.u32()
        var attributes: [String] = []
        for _ in 0..<count { attributes.append(try reader.string()) }
        let node = try reader.node(attributes)
        guard reader.offset == bytes.count else { throw Reader.corrupt }
        return (attributes, node)
    }

    private static let comparisons: [ComparisonOperator] = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]
    private static let textOperators: [TextMatchOperator] = [.equal, .contains, .beginsWith, .endsWith, .like]

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func u8(_ value: Int) { bytes.append(UInt8(truncatingIfNeeded: value)) }
        mutating func u32(_ value: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { bytes.append(contentsOf: $0) } }
        mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        mutating func string(_ text: String) { data(text.utf8) }
        mutating func data(_ payload: some Collection<UInt8>) {
            u32(payload.count)
            bytes.append(contentsOf: payload)
        }

        mutating func value(_ value: SQLValue) {
            switch value {
            case .null: u8(0)
            case .integer(let integer): u8(1); u64(UInt64(bitPattern: integer))
            case .real(let real): u8(2); u64(real.bitPattern)
            case .text(let text): u8(3); string(text)
            case .blob(let blob): u8(4); data(blob)
            }
        }

        /// Writes one side of a comparison of computed values, in pre-order (its recursion is
        /// bounded by ``PredicateValue/maximumOperations``).
        mutating func computed(_ side: PredicateValue, _ attribute: (String) throws -> Int) throws {
            switch side {
            case .key(let name): u8(0); u32(try attribute(name))
            case .constant(let constant): u8(1); value(constant)
            case .arithmetic(let op, let lhs, let rhs):
                u8(2); u8(Int(op.rawValue))
                try computed(lhs, attribute)
                try computed(rhs, attribute)
            case .negated(let inner): u8(3); try computed(inner, attribute)
            }
        }

        /// Writes the tree in pre-order, with an explicit stack (trees nest up to
        /// ``PredicateNode/maximumNesting`` levels).
        mutating func node(_ root: PredicateNode, _ index: [String: Int]) throws {
            var stack = [root]
            while let node = stack.popLast() { try write(node, index, pushing: &stack) }
        }

        /// Writes one node; a group's or a NOT's children are pushed for the caller's loop.
        private mutating func write(_ node: PredicateNode, _ index: [String: Int], pushing stack: inout [PredicateNode]) throws {
            func attribute(_ name: String) throws -> Int {
                guard let slot = index[name] else { throw PersistError(.invalidPredicate, "No column for attribute \(name)", attribute: name) }
                return slot
            }
            switch node {
            case .constant(let value): u8(value ? 1 : 0)
            case .and(let children), .or(let children):
                if case .and = node { u8(2) } else { u8(3) }
                u32(children.count)
                stack.append(contentsOf: children.reversed())
            case .not(let inner): u8(4); stack.append(inner)
            case .compare(let name, let op, let operand):
                u8(5); u32(try attribute(name)); u8(PredicateCodec.comparisons.firstIndex(of: op) ?? 0); value(operand)
            case .text(let name, let op, let pattern, let options):
                u8(6); u32(try attribute(name)); u8(PredicateCodec.textOperators.firstIndex(of: op) ?? 0)
                u8(options.rawValue); string(pattern)
            case .inList(let name, let values):
                u8(7); u32(try attribute(name)); u32(values.count)
                for element in values { value(element) }
            case .matches(let name, let regex):
                u8(8); u32(try attribute(name)); u8(regex.options.rawValue); string(regex.pattern)
            case .values(let lhs, let comparison, let rhs):
                u8(9)
                switch comparison {
                case .order(let op): u8(0); u8(PredicateCodec.comparisons.firstIndex(of: op) ?? 0)
                case .text(let op, let options):
                    u8(1); u8(PredicateCodec.textOperators.firstIndex(of: op) ?? 0); u8(options.rawValue)
                }
                try computed(lhs, attribute)
                try computed(rhs, attribute)
            case .invalid(let error): throw error
            case .variable(let variable): throw variable.unsubstitutedError
            case .relationship(let relationship):
                throw PersistError(.invalidPredicate, "A condition on \(relationship.path) cannot be evaluated from columns", attribute: relationship.path)
            case .entity(let test):
                // The SQL compiler decides entity tests before encoding (see `decidingEntityTests(for:)`).
                throw PersistError(.invalidPredicate, "A test of the entity (\(test.entityName)) cannot be evaluated from columns")
            }
        }
    }

    private struct Reader {
        /// Operators read in the current side (bounded as ``PredicateValue/maximumOperations``).
        var operations = 0

        static let corrupt = PersistError(.invalidPredicate, "A predicate passed to SQL is damaged")

        let bytes: UnsafeRawBufferPointer
        var offset = 0

        mutating func take(_ count: Int) throws -> UnsafeRawBufferPointer {
            guard count >= 0, count <= bytes.count - offset else { throw Self.corrupt }
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
        }

        mutating func u8() throws -> Int { Int(try take(1)[0]) }
        mutating func u32() throws -> Int {
            let raw = try take(4)
            return raw.reversed().reduce(0) { $0 << 8 | Int($1) }
        }
        mutating func u64() throws -> UInt64 {
            let raw = try take(8)
            return raw.reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        mutating func string() throws -> String { String(decoding: try take(try u32()), as: UTF8.self) }

        mutating func value() throws -> SQLValue {
            switch try u8() {
            case 0: return .null
            case 1: return .integer(Int64(bitPattern: try u64()))
            case 2: return .real(Double(bitPattern: try u64()))
            case 3: return .text(try string())
            case 4: return .blob(Data(try take(try u32())))
            default: throw Self.corrupt
            }
        }

        /// Reads a tree written by `Writer`, with an explicit stack of the groups being read;
        /// deeper than any normalized tree nests is damage.
        mutating func node(_ attributes: [String]) throws -> PredicateNode {
            var open: [(tag: Int, remaining: Int, children: [PredicateNode])] = []
            while true {
                var finished: PredicateNode
                let tag = try u8()
                if tag == 2 || tag == 3 || tag == 4 {
                    let count = tag == 4 ? 1 : try u32()
                    if count == 0 {
                        finished = tag == 2 ? .and([]) : .or([])
                    } else {
                        guard open.count <= PredicateNode.maximumNesting else { throw Self.corrupt }
                        open.append((tag, count, []))
                        continue
                    }
                } else {
                    finished = try leaf(tag, attributes)
                }
                // Hands the node to its group, closing the groups it completes.
                while var top = open.popLast() {
                    top.children.append(finished)
                    top.remaining -= 1
                    if top.remaining > 0 {
                        open.append(top)
                        break
                    }
                    switch top.tag {
                    case 2: finished = .and(top.children)
                    case 3: finished = .or(top.children)
                    default: finished = .not(top.children[0])
                    }
                    if open.isEmpty { return finished }
                }
                if open.isEmpty { return finished }
            }
        }

        /// A comparison, its tag read.
        private mutating func leaf(_ tag: Int, _ attributes: [String]) throws -> PredicateNode {
            func attribute() throws -> String {
                let slot = try u32()
                guard slot < attributes.count else { throw Self.corrupt }
                return attributes[slot]
            }
            switch tag {
            case 0: return .constant(false)
            case 1: return .constant(true)
            case 5:
                let name = try attribute()
                let op = try u8()
                guard op < PredicateCodec.comparisons.count else { throw Self.corrupt }
                return .compare(attribute: name, PredicateCodec.comparisons[op], try value())
            case 6:
                let name = try attribute()
                let op = try u8()
                guard op < PredicateCodec.textOperators.count else { throw Self.corrupt }
                let options = StringComparisonOptions(rawValue: try u8() & 3)
                return .text(attribute: name, PredicateCodec.textOperators[op], try string(), options)
            case 7:
                let name = try attribute()
                let count = try u32()
                var values: [SQLValue] = []
                for _ in 0..<count { values.append(try value()) }
                return .inList(attribute: name, values)
            case 8:
                let name = try attribute()
                let options = StringComparisonOptions(rawValue: try u8() & 3)
                return .matches(attribute: name, try PredicateRegex(pattern: try string(), options: options))
            case 9:
                let comparison: ValueComparison
                switch try u8() {
                case 0:
                    let op = try u8()
                    guard op < PredicateCodec.comparisons.count else { throw Self.corrupt }
                    comparison = .order(PredicateCodec.comparisons[op])
                case 1:
                    let op = try u8()
                    guard op < PredicateCodec.textOperators.count else { throw Self.corrupt }
                    comparison = .text(PredicateCodec.textOperators[op], StringComparisonOptions(rawValue: try u8() & 3))
                default: throw Self.corrupt
                }
                operations = 0
                let lhs = try computed(attributes)
                operations = 0
                return .values(lhs, comparison, try computed(attributes))
            default:
                throw Self.corrupt
            }
        }

        /// One side of a comparison of computed values; more operators than a side may hold is damage.
        private mutating func computed(_ attributes: [String]) throws -> PredicateValue {
            switch try u8() {
            case 0:
                let slot = try u32()
                guard slot < attributes.count else { throw Self.corrupt }
                return .key(attributes[slot])
            case 1: return .constant(try value())
            case 2:
                operations += 1
                guard operations <= PredicateValue.maximumOperations,
                      let op = ArithmeticOperator(rawValue: UInt8(try u8())) else { throw Self.corrupt }
                let lhs = try computed(attributes)
                return .arithmetic(op, lhs, try computed(attributes))
            case 3:
                operations += 1
                guard operations <= PredicateValue.maximumOperations else { throw Self.corrupt }
                return .negated(try computed(attributes))
            default: throw Self.corrupt
            }
        }
    }
}
