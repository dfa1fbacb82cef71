import Foundation

/// Full canonical decompositions of every scalar that has one, except Hangul syllables.
///
/// Built once from Foundation's NFD: one string of all candidate scalars, each followed by a
/// separator that is a starter without decomposition, so that NFD cannot reorder across it and each
/// segment of the result is one scalar's decomposition.
struct DecompositionTable: Sendable {
    /// Where each decomposition is in ``storage``.
    var index: [UInt32: Range<Int>] = [:]
    /// All decompositions, one after the other.
    var storage: [UInt32] = []

    static let shared = DecompositionTable()

    private init() {
        let separator = Unicode.Scalar(UInt8(0x01))
        var sources: [UInt32] = []
        var text = String.UnicodeScalarView()
        // U+2FA1D, the last CJK compatibility ideograph, is the last scalar with a decomposition.
        for value in UInt32(0xC0)..<0x2FA20 where !(0xAC00...0xD7A3).contains(value) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            switch scalar.properties.generalCategory {
            case .unassigned, .privateUse, .surrogate: continue
            default: break
            }
            // Unified ideographs have no decomposition; skipping them halves the work.
            if scalar.properties.isUnifiedIdeograph { continue }
            sources.append(value)
            text.append(scalar)
            text.append(separator)
        }
        var segment: [UInt32] = []
        var next = 0
        for scalar in String(text).decomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar != separator {
                segment.append(scalar.value)
                continue
            }
            guard next < sources.count else { break }
            add(sources[next], segment)
            segment.removeAll(keepingCapacity: true)
            next += 1
        }
        if next == sources.count && segment.isEmpty { return }
        // Not one segment per scalar (never seen): decompose each scalar on its own instead.
        index = [:]
        storage = []
        for value in sources {
            guard let scalar = Unicode.Scalar(value) else { continue }
            add(value, String(Character(scalar)).decomposedStringWithCanonicalMapping.unicodeScalars.map(\.value))
        }
    }

    private mutating func add(_ value: UInt32, _ decomposition: [UInt32]) {
        guard decomposition != [value], !decomposition.isEmpty else { return }
        index[value] = storage.count..<(storage.count + decomposition.count)
        storage.append(contentsOf: decomposition)
    }
}
