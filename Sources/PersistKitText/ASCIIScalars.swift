/// The bytes of an ASCII string as scalars, optionally lowercased: the ASCII side of the collations.
struct ASCIIScalars: IteratorProtocol {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let lowercased: Bool
    private var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, lowercased: Bool) {
        self.bytes = bytes
        self.lowercased = lowercased
    }

    @inline(__always)
    mutating func next() -> UInt32? {
        guard index < bytes.count else { return nil }
        let byte = bytes[index]
        index &+= 1
        return UInt32(lowercased ? TextFolding.asciiLower(byte) : byte)
    }
}
