/// An iterator with one element of lookahead, for reading numbers.
struct Lookahead<Base: IteratorProtocol<UInt32>> {
    private var base: Base
    private var peeked: UInt32?
    private var hasPeeked = false

    init(_ base: Base) { self.base = base }

    @inline(__always)
    mutating func peek() -> UInt32? {
        if !hasPeeked {
            peeked = base.next()
            hasPeeked = true
        }
        return peeked
    }

    @inline(__always)
    mutating func next() -> UInt32? {
        if hasPeeked {
            hasPeeked = false
            return peeked
        }
        return base.next()
    }
}
