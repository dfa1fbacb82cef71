import Foundation

/// The values of a uniqueness constraint's keys, equal when SQLite's unique indexes would call
/// them equal: numbers by value (an integer equals the real of the same value, -0.0 equals
/// 0.0), text and blobs byte for byte (not by Swift's canonical equivalence, which
/// `SQLValue`'s `==` uses). A one-key constraint's value needs no array.
struct UniquenessKey: Hashable {
    let first: SQLValue
    let rest: [SQLValue]

    /// The values of `slots` in `storage`.
    init(_ storage: ContiguousArray<SQLValue>, slots: [Int]) {
        first = storage[slots[0]]
        rest = slots.count == 1 ? [] : slots.dropFirst().map { storage[$0] }
    }

    /// Values in a flat list, `count` at a time, from `start`.
    init(_ values: [SQLValue], from start: Int, count: Int) {
        first = values[start]
        rest = Array(values[(start + 1)..<(start + count)])
    }

    /// The values, in the constraint's order.
    var values: [SQLValue] { [first] + rest }

    /// Whether any value is NULL: such a tuple never collides, as in SQLite's unique indexes.
    var containsNull: Bool { first.isNull || rest.contains(where: \.isNull) }

    static func == (lhs: UniquenessKey, rhs: UniquenessKey) -> Bool {
        guard lhs.rest.count == rhs.rest.count, same(lhs.first, rhs.first) else { return false }
        return zip(lhs.rest, rhs.rest).allSatisfy { same($0, $1) }
    }

    /// SQLite's `=` for stored values. A dictionary probe compares several keys per lookup:
    /// values of one storage class take the direct comparison (text by length, then bytes).
    private static func same(_ a: SQLValue, _ b: SQLValue) -> Bool {
        switch (a, b) {
        case (.text(let x), .text(let y)): return SQLValue.bytesEqual(x, y)
        case (.integer(let x), .integer(let y)): return x == y
        case (.real(let x), .real(let y)): return x == y
        case (.blob(let x), .blob(let y)): return x == y
        default: return SQLValue.compare(a, b) == 0
        }
    }

    func hash(into hasher: inout Hasher) {
        Self.hash(first, into: &hasher)
        for value in rest { Self.hash(value, into: &hasher) }
    }

    private static func hash(_ value: SQLValue, into hasher: inout Hasher) {
        switch value {
        case .null:
            hasher.combine(0 as UInt8)
        case .integer(let number):
            hasher.combine(1 as UInt8)
            hasher.combine(Double(number))   // as the equal real would
        case .real(let number):
            hasher.combine(1 as UInt8)
            hasher.combine(number)   // Double's hash already makes -0.0 and 0.0 one
        case .text(var text):
            hasher.combine(2 as UInt8)
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        case .blob(let data):
            hasher.combine(3 as UInt8)
            hasher.combine(data)
        }
    }
}
