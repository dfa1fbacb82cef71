import Foundation

/// The case folding (lowercase of the full uppercase mapping) of every non-ASCII scalar it changes.
struct CaseTable: Sendable {
    /// The table covers scalars below this; all cased scripts are below it.
    static let limit: UInt32 = 0x20000

    /// Where each folding is in ``storage``.
    var index: [UInt32: Range<Int>] = [:]
    /// All foldings, one after the other.
    var storage: [UInt32] = []

    static let shared = CaseTable()

    private init() {
        for value in UInt32(0x80)..<Self.limit {
            guard let scalar = Unicode.Scalar(value), let folded = Self.folding(of: scalar) else { continue }
            index[value] = storage.count..<(storage.count + folded.count)
            storage.append(contentsOf: folded)
        }
    }

    /// The lowercase of the full uppercase mapping of `scalar`, nil if that is the scalar itself.
    static func folding(of scalar: Unicode.Scalar) -> [UInt32]? {
        guard scalar.properties.changesWhenCaseMapped else { return nil }
        var folded: [UInt32] = []
        for upper in scalar.properties.uppercaseMapping.unicodeScalars {
            folded.append(contentsOf: upper.properties.lowercaseMapping.unicodeScalars.map(\.value))
        }
        return folded == [scalar.value] || folded.isEmpty ? nil : folded
    }
}
