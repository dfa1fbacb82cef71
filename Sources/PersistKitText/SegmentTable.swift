import Foundation

/// Precomputed folds of the two-byte UTF-8 scalars (U+0080–U+07FF), for each of the four option
/// sets, so that Latin, Greek and Cyrillic letters fold with one table look-up.
struct SegmentTable: Sendable {
    static let first: UInt32 = 0x80
    static let end: UInt32 = 0x800
    private static let size = Int(end - first)

    /// Per column and scalar: the fold's offset in ``storage`` << 8 | its length.
    private var entries: [UInt32]
    /// Per scalar: whether its decomposition starts with a starter, so that it starts a segment.
    private var starters: [Bool]
    /// All folds, one after the other.
    private(set) var storage: [UInt32] = []

    static let shared = SegmentTable()

    private init() {
        entries = [UInt32](repeating: 0, count: 4 * Self.size)
        starters = [Bool](repeating: false, count: Self.size)
        var decomposed: [UInt32] = []
        var folded: [UInt32] = []
        var scratch: [UInt32] = []
        for index in 0..<Self.size {
            let value = Self.first + UInt32(index)
            decomposed.removeAll(keepingCapacity: true)
            TextFolding.appendDecomposition(of: value, to: &decomposed)
            var usable = decomposed.first.map { TextFolding.combiningClass($0) == 0 } ?? false
            for column in 0..<4 {
                folded.removeAll(keepingCapacity: true)
                TextFolding.foldSegment(
                    decomposed, caseInsensitive: column & 1 != 0, dropMarks: column & 2 != 0,
                    scratch: &scratch, into: &folded)
                usable = usable && folded.count < 256
                entries[column * Self.size + index] = UInt32(storage.count) << 8 | UInt32(folded.count & 0xFF)
                storage.append(contentsOf: folded)
            }
            starters[index] = usable
        }
    }

    /// Whether a two-byte scalar's decomposition starts with a starter (and it is in the table).
    @inline(__always)
    static func startsWithStarter(_ value: UInt32) -> Bool {
        let index = Int(value &- first)
        return index >= 0 && index < size && shared.starters[index]
    }

    /// The range in ``storage`` of the fold of a two-byte scalar in a column.
    @inline(__always)
    func range(of value: UInt32, column: Int) -> Range<Int> {
        let entry = entries[column * Self.size + Int(value &- Self.first)]
        let offset = Int(entry >> 8)
        return offset..<(offset + Int(entry & 0xFF))
    }
}
