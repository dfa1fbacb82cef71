import Foundation

/// The folded NFD scalars of UTF-8 text, produced only as far as they are read.
///
/// This is the one implementation of folding: ``TextFolding/scalars(of:folding:)`` drains it, and
/// collations read it lazily, so comparing two long strings that differ early folds only their
/// beginnings. Text is processed one canonical segment at a time (a starter and the marks after
/// it): NFD only reorders marks within a segment, and case and mark folding work scalar by scalar,
/// so folding segment by segment gives the same result as folding the whole string.
///
/// Fast paths, taken when the next scalar is known to start a new segment (it is ASCII, or a
/// two-byte scalar whose decomposition starts with a starter): an ASCII byte is handed out
/// directly, and a two-byte scalar (Latin, Greek, Cyrillic, Hebrew, Arabic...) from a table of
/// precomputed folds. ASCII text never allocates. Invalid UTF-8 is decoded with U+FFFD for each
/// maximal invalid subsequence, as `String(decoding:as:)` does.
struct FoldedScalars: IteratorProtocol {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private let caseInsensitive: Bool
    private let dropMarks: Bool
    /// Which column of ``SegmentTable`` holds folds for these options.
    private let tableColumn: Int
    /// A precomputed fold being handed out: `SegmentTable.shared.storage[tableCursor..<tableEnd]`.
    private var tableCursor = 0
    private var tableEnd = 0
    /// Folded scalars being handed out, from `outputIndex` on.
    private var output: [UInt32] = []
    private var outputIndex = 0
    /// The decomposed scalars of the segment still open: marks may yet follow.
    private var pending: [UInt32] = []
    /// One scalar's decomposition, on its way to `pending`.
    private var decomposed: [UInt32] = []
    private var scratch: [UInt32] = []

    /// Reads `bytes`, which must stay valid while the iterator is used.
    init(_ bytes: UnsafeBufferPointer<UInt8>, _ options: TextOptions) {
        self.bytes = bytes
        caseInsensitive = options.contains(.caseInsensitive)
        dropMarks = options.contains(.diacriticInsensitive)
        tableColumn = (caseInsensitive ? 1 : 0) | (dropMarks ? 2 : 0)
    }

    mutating func next() -> UInt32? {
        while true {
            if tableCursor < tableEnd {
                tableCursor &+= 1
                return SegmentTable.shared.storage[tableCursor &- 1]
            }
            if outputIndex < output.count {
                outputIndex &+= 1
                return output[outputIndex &- 1]
            }
            if !output.isEmpty {
                output.removeAll(keepingCapacity: true)
                outputIndex = 0
            }
            guard position < bytes.count else {
                if pending.isEmpty { return nil }
                flush()
                continue
            }
            let byte = bytes[position]
            if !pending.isEmpty {
                if startsSegment(at: position) {
                    flush()
                    continue
                }
            } else if byte < 0x80 {
                if startsSegment(at: position &+ 1) {
                    position &+= 1
                    return UInt32(caseInsensitive ? TextFolding.asciiLower(byte) : byte)
                }
            } else if let scalar = twoByteScalar(at: position), SegmentTable.startsWithStarter(scalar),
                      startsSegment(at: position &+ 2) {
                position &+= 2
                let range = SegmentTable.shared.range(of: scalar, column: tableColumn)
                tableCursor = range.lowerBound
                tableEnd = range.upperBound
                continue
            }
            readScalar()
        }
    }

    /// Reads one scalar into the open segment, closing the segment first if it is a starter.
    private mutating func readScalar() {
        guard let scalar = decodeScalar() else {
            position = bytes.count
            return
        }
        if !decomposed.isEmpty { decomposed.removeAll(keepingCapacity: true) }
        TextFolding.appendDecomposition(of: scalar, to: &decomposed)
        for value in decomposed {
            // A starter closes the open segment: nothing after it can reorder into it.
            if !pending.isEmpty && TextFolding.combiningClass(value) == 0 { flush() }
            pending.append(value)
        }
    }

    /// Whether the text at `index` is the end or a scalar known to start a new segment.
    @inline(__always)
    private func startsSegment(at index: Int) -> Bool {
        guard index < bytes.count else { return true }
        if bytes[index] < 0x80 { return true }
        guard let scalar = twoByteScalar(at: index) else { return false }
        return SegmentTable.startsWithStarter(scalar)
    }

    /// The valid two-byte UTF-8 scalar at `index`, if there is one.
    @inline(__always)
    private func twoByteScalar(at index: Int) -> UInt32? {
        let lead = bytes[index]
        guard lead &- 0xC2 < 30, index &+ 1 < bytes.count else { return nil }
        let trail = bytes[index &+ 1]
        guard trail & 0xC0 == 0x80 else { return nil }
        return UInt32(lead & 0x1F) << 6 | UInt32(trail & 0x3F)
    }

    /// Folds the open segment into `output`.
    private mutating func flush() {
        TextFolding.foldSegment(
            pending, caseInsensitive: caseInsensitive, dropMarks: dropMarks, scratch: &scratch, into: &output)
        pending.removeAll(keepingCapacity: true)
    }

    /// Decodes the scalar at `position` and moves past it; U+FFFD for invalid bytes, nil at the end.
    private mutating func decodeScalar() -> UInt32? {
        var iterator = bytes[position...].makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        switch parser.parseScalar(from: &iterator) {
        case .valid(let encoded):
            position += encoded.count
            return Unicode.UTF8.decode(encoded).value
        case .error(let length):
            position += max(length, 1)
            return 0xFFFD
        case .emptyInput:
            return nil
        }
    }
}
