/// A set of attribute slots: a bit mask for the first 64, a `Set` only beyond (rare), so
/// tracking a change allocates nothing.
struct SlotSet: Sendable, Hashable {
    private var bits: UInt64 = 0
    private var overflow: Set<Int>?

    init() {}

    init(_ slots: some Sequence<Int>) {
        for slot in slots { insert(slot) }
    }

    mutating func insert(_ slot: Int) {
        if slot >= 0 && slot < 64 {
            bits |= 1 << UInt64(slot)
        } else {
            overflow = (overflow ?? []).union([slot])
        }
    }

    mutating func formUnion(_ other: SlotSet) {
        bits |= other.bits
        if let more = other.overflow { overflow = (overflow ?? []).union(more) }
    }

    func contains(_ slot: Int) -> Bool {
        if slot >= 0 && slot < 64 { return bits & (1 << UInt64(slot)) != 0 }
        return overflow?.contains(slot) ?? false
    }

    var isEmpty: Bool { bits == 0 && (overflow?.isEmpty ?? true) }

    /// The slots, ascending.
    var slots: [Int] {
        var result: [Int] = []
        var remaining = bits
        while remaining != 0 {
            let slot = remaining.trailingZeroBitCount
            result.append(slot)
            remaining &= remaining - 1
        }
        if let overflow { result.append(contentsOf: overflow.sorted()) }
        return result
    }
}
