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

    /// The lowercase of the full uppercase mapping of `scalar`, mapped again until it no longer
    /// changes; nil if that is the scalar itself. Once is not always enough: "ẞ" (capital sharp
    /// s) uppercases to itself and lowercases to "ß", which folds to "ss" (as Unicode's full
    /// case folding has it).
    static func folding(of scalar: Unicode.Scalar) -> [UInt32]? {
        guard scalar.properties.changesWhenCaseMapped else { return nil }
        var folded = [scalar]
        for _ in 0..<3 {
            var next: [Unicode.Scalar] = []
            for value in folded {
                for upper in value.properties.uppercaseMapping.unicodeScalars {
                    next.append(contentsOf: upper.properties.lowercaseMapping.unicodeScalars)
                }
            }
            if next == folded { break }
            folded = next
        }
        let values = folded.map(\.value)
        return values == [scalar.value] || values.isEmpty ? nil : values
    }
}
