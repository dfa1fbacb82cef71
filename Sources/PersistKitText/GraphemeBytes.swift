/// A string's UTF-8 with the byte offsets of its Characters, for comparing Characters by bytes.
struct GraphemeBytes {
    /// The UTF-8 bytes.
    private(set) var bytes: [UInt8]
    /// `bounds[i]..<bounds[i + 1]` are the bytes of Character `i`; starts with 0.
    private var bounds: [Int]

    init(_ text: String) {
        bytes = Array(text.utf8)
        bounds = [0]
        var offset = 0
        for character in text {
            offset += character.utf8.count
            bounds.append(offset)
        }
    }

    /// The number of Characters.
    var count: Int { bounds.count - 1 }

    /// Appends Character `index` of `other`.
    mutating func append(_ other: GraphemeBytes, _ index: Int) {
        bytes.append(contentsOf: other.bytes[other.bounds[index]..<other.bounds[index + 1]])
        bounds.append(bytes.count)
    }

    /// Whether `length` Characters from `start` equal those of `other` from `otherStart`, byte for byte.
    func range(_ start: Int, equals other: GraphemeBytes, _ otherStart: Int, _ length: Int) -> Bool {
        let lower = bounds[start]
        let upper = bounds[start + length]
        let otherLower = other.bounds[otherStart]
        let otherUpper = other.bounds[otherStart + length]
        // Equal bytes and equal boundaries: the same Characters in the same order.
        guard upper - lower == otherUpper - otherLower else { return false }
        for offset in 0..<(upper - lower) where bytes[lower + offset] != other.bytes[otherLower + offset] {
            return false
        }
        var k = 1
        while k < length {
            if bounds[start + k] - lower != other.bounds[otherStart + k] - otherLower { return false }
            k += 1
        }
        return true
    }
}
