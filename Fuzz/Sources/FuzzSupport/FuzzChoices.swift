/// Choices read from the fuzzer's bytes, as a generator draws them from a random source: the
/// fuzzer learns which bytes steer which choice. Past the end every choice is the first.
public struct FuzzChoices {
    private let bytes: [UInt8]
    private var index = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var isExhausted: Bool { index >= bytes.count }

    public mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// A number in `0..<count` (0 when count is 1 or less).
    public mutating func pick(_ count: Int) -> Int {
        count <= 1 ? 0 : Int(byte()) % count
    }

    public mutating func coin() -> Bool { byte() & 1 == 1 }

    public mutating func element<T>(_ elements: [T]) -> T { elements[pick(elements.count)] }

    /// A little-endian 64-bit integer.
    public mutating func int64() -> Int64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) { value |= UInt64(byte()) << UInt64(shift) }
        return Int64(bitPattern: value)
    }

    /// The rest of the bytes.
    public mutating func rest() -> [UInt8] {
        defer { index = bytes.count }
        return index < bytes.count ? Array(bytes[index...]) : []
    }
}
