import Foundation

/// A tuple of stored values, equal when SQLite's unique indexes would call it equal: numbers
/// by value (an integer equals the real of the same value, -0.0 equals 0.0), text and blobs
/// byte for byte (not by Swift's canonical equivalence, which `SQLValue`'s `==` uses).
struct UniquenessKey: Hashable {
    let values: [SQLValue]

    init(_ values: [SQLValue]) {
        self.values = values
    }

    static func == (lhs: UniquenessKey, rhs: UniquenessKey) -> Bool {
        guard lhs.values.count == rhs.values.count else { return false }
        return zip(lhs.values, rhs.values).allSatisfy { SQLValue.compare($0, $1) == 0 }
    }

    func hash(into hasher: inout Hasher) {
        for value in values {
            switch value {
            case .null:
                hasher.combine(0 as UInt8)
            case .integer(let number):
                hasher.combine(1 as UInt8)
                hasher.combine(Double(number))
            case .real(let number):
                hasher.combine(1 as UInt8)
                hasher.combine(number)   // Double's hash already makes -0.0 and 0.0 one
            case .text(let text):
                hasher.combine(2 as UInt8)
                var text = text
                text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            case .blob(let data):
                hasher.combine(3 as UInt8)
                hasher.combine(data)
            }
        }
    }
}
