/// A results controller's rows in order, kept in chunks of at most `maxChunk` rows with a
/// Fenwick tree of the chunk sizes: a row goes in or out, or a flat position is found, in
/// O(log n) plus one move within a chunk, where one flat array would move O(n) rows.
///
/// Finding a row's chunk reads `boundaries`, one array of each chunk's last sort keys, not each
/// chunk's last row: at a million rows those rows are scattered over the heap, a cache miss
/// (and a page walk) per step of the search, where the boundaries are one block.
///
/// `fetched` keeps the fetched array while nothing changed, so a refetch or a read of every
/// row gets it back for free.
struct ResultsRowStore: Sequence {
    /// The most rows a chunk holds by default: a move within a chunk stays a few hundred bytes,
    /// and a million rows make 2,000 chunks.
    static let defaultMaxChunk = 512
    /// The most rows a chunk holds; a chunk that grows past it is halved.
    let maxChunk: Int
    /// The rows a chunk is made with: three quarters of `maxChunk`, so that a quarter's worth
    /// of rows can come into a fetched chunk before it splits. A split is O(chunks) (the chunk
    /// list and the Fenwick tree are rebuilt around it): with full chunks, every first insert
    /// into a chunk split it, and after a fetch of a million rows nearly every change did.
    private var fillChunk: Int { Swift.max(1, maxChunk * 3 / 4) }

    private var chunks: [ArraySlice<ResultsEntry>] = []
    /// `boundaries[i]` is the keys of `chunks[i]`'s last row.
    private var boundaries: [ResultsChunkBoundary] = []
    /// `tree[i]` (1-based) is the sum of the chunk sizes in `(i - lowbit(i)) ..< i`.
    private var tree: [Int] = [0]
    /// The rows as fetched, while no change was made since.
    private var fetched: [ResultsEntry]?
    private(set) var count = 0

    /// The rows of `rows`, in chunks. With `copyingChunks`, each chunk gets its own buffer now,
    /// while the rows are fresh in the cache (after a fetch: a chunk sharing the fetched array
    /// would be copied, a retain per row and each a cache miss among a million, by the first
    /// change that touches it); without, chunks are slices of `rows` until they change (after
    /// a change of many rows, which the next one of its size would redo).
    init(_ rows: [ResultsEntry] = [], maxChunk: Int = ResultsRowStore.defaultMaxChunk, copyingChunks: Bool = true) {
        self.maxChunk = Swift.max(2, maxChunk)
        fetched = rows
        count = rows.count
        let fill = fillChunk
        chunks.reserveCapacity(rows.count / fill + 1)
        boundaries.reserveCapacity(rows.count / fill + 1)
        var start = 0
        while start < rows.count {
            let end = Swift.min(rows.count, start + fill)
            chunks.append(copyingChunks ? Self.chunk(rows[start..<end], capacity: self.maxChunk + 1) : rows[start..<end])
            boundaries.append(ResultsChunkBoundary(rows[end - 1]))
            start = end
        }
        rebuildTree()
    }

    /// A chunk of its own holding `rows`, with room for `capacity` (a chunk's inserts up to its
    /// split then never reallocate it).
    private static func chunk(_ rows: ArraySlice<ResultsEntry>, capacity: Int) -> ArraySlice<ResultsEntry> {
        var chunk: [ResultsEntry] = []
        chunk.reserveCapacity(capacity)
        chunk.append(contentsOf: rows)
        return chunk[...]
    }

    /// Every row, in order: the fetched array itself when nothing changed since.
    var array: [ResultsEntry] {
        if let fetched { return fetched }
        var result: [ResultsEntry] = []
        result.reserveCapacity(count)
        for chunk in chunks { result.append(contentsOf: chunk) }
        return result
    }

    /// The rows at `range` (flat positions).
    func slice(_ range: Range<Int>) -> ArraySlice<ResultsEntry> {
        if let fetched { return fetched[range] }
        var result: [ResultsEntry] = []
        result.reserveCapacity(range.count)
        guard !range.isEmpty else { return result[...] }
        var (chunk, offset) = locate(range.lowerBound)
        while result.count < range.count, chunk < chunks.count {
            let rows = chunks[chunk]
            let take = Swift.min(rows.count - offset, range.count - result.count)
            result.append(contentsOf: rows[(rows.startIndex + offset)..<(rows.startIndex + offset + take)])
            chunk += 1
            offset = 0
        }
        return result[...]
    }

    /// The row at flat position `position` (`0 ..< count`).
    subscript(position: Int) -> ResultsEntry {
        if let fetched { return fetched[position] }
        let (chunk, offset) = locate(position)
        let rows = chunks[chunk]
        return rows[rows.startIndex + offset]
    }

    /// The first flat position whose row is not `before` (rows `before` holds for come first).
    func partitionPoint(_ before: (ResultsEntry) -> Bool) -> Int {
        partitionPoint(before) { before($0.last) }
    }

    /// The first flat position whose row is not `before`; `boundaryBefore` says the same of a
    /// chunk's last row from its boundary (reading the row only when its keys cannot tell).
    func partitionPoint(_ before: (ResultsEntry) -> Bool, boundaryBefore: (ResultsChunkBoundary) -> Bool) -> Int {
        let chunk = firstChunk(notBefore: boundaryBefore)
        guard chunk < chunks.count else { return count }
        return start(of: chunk) + Self.partitionPoint(chunks[chunk], before)
    }

    /// The first chunk whose last row is not before (`chunks.count` when every one is).
    private func firstChunk(notBefore before: (ResultsChunkBoundary) -> Bool) -> Int {
        boundaries.withUnsafeBufferPointer { boundaries in
            var low = 0, high = boundaries.count
            while low < high {
                let mid = (low + high) / 2
                if before(boundaries[mid]) { low = mid + 1 } else { high = mid }
            }
            return low
        }
    }

    /// The offset in `rows` of the first row that is not `before`.
    private static func partitionPoint(_ rows: ArraySlice<ResultsEntry>, _ before: (ResultsEntry) -> Bool) -> Int {
        var low = rows.startIndex, high = rows.endIndex
        while low < high {
            let mid = (low + high) / 2
            if before(rows[mid]) { low = mid + 1 } else { high = mid }
        }
        return low - rows.startIndex
    }

    /// Puts `entry` in at the place `before` says: after the rows it holds for, before the others.
    /// Returns the flat position it went to.
    @discardableResult
    mutating func insert(_ entry: ResultsEntry, _ before: (ResultsEntry) -> Bool) -> Int {
        insert(entry, before) { before($0.last) }
    }

    /// Puts `entry` in at the place `before` says, its chunk found by `boundaryBefore` (as in
    /// `partitionPoint(_:boundaryBefore:)`). Returns the flat position it went to.
    @discardableResult
    mutating func insert(_ entry: ResultsEntry, _ before: (ResultsEntry) -> Bool,
                         boundaryBefore: (ResultsChunkBoundary) -> Bool) -> Int {
        fetched = nil
        count += 1
        guard !chunks.isEmpty else {
            chunks = [[entry]]
            boundaries = [ResultsChunkBoundary(entry)]
            rebuildTree()
            return 0
        }
        let chunk = Swift.min(firstChunk(notBefore: boundaryBefore), chunks.count - 1)
        let offset = Self.partitionPoint(chunks[chunk], before)
        let position = start(of: chunk) + offset
        chunks[chunk].insert(entry, at: chunks[chunk].startIndex + offset)
        if offset == chunks[chunk].count - 1 { boundaries[chunk] = ResultsChunkBoundary(entry) }
        if chunks[chunk].count > maxChunk {
            split(chunk)
        } else {
            add(1, toChunk: chunk)
        }
        return position
    }

    /// Takes out the row at flat position `position` (`0 ..< count`).
    mutating func remove(at position: Int) {
        fetched = nil
        count -= 1
        let (chunk, offset) = locate(position)
        chunks[chunk].remove(at: chunks[chunk].startIndex + offset)
        if chunks[chunk].isEmpty {
            chunks.remove(at: chunk)
            boundaries.remove(at: chunk)
            rebuildTree()
        } else {
            if offset == chunks[chunk].count, let last = chunks[chunk].last { boundaries[chunk] = ResultsChunkBoundary(last) }
            add(-1, toChunk: chunk)
        }
    }

    /// Halves a chunk that grew too large: its second half is copied to a new chunk.
    private mutating func split(_ chunk: Int) {
        let middle = chunks[chunk].startIndex + chunks[chunk].count / 2
        let tail = Self.chunk(chunks[chunk][middle...], capacity: maxChunk + 1)
        chunks[chunk].removeSubrange(middle...)
        chunks.insert(tail, at: chunk + 1)
        boundaries.insert(boundaries[chunk], at: chunk + 1)
        if let last = chunks[chunk].last { boundaries[chunk] = ResultsChunkBoundary(last) }
        rebuildTree()
    }

    // MARK: Fenwick tree

    private mutating func rebuildTree() {
        tree = [Int](repeating: 0, count: chunks.count + 1)
        for (index, chunk) in chunks.enumerated() {
            let node = index + 1
            tree[node] += chunk.count
            let parent = node + (node & -node)
            if parent < tree.count { tree[parent] += tree[node] }
        }
    }

    private mutating func add(_ delta: Int, toChunk chunk: Int) {
        var node = chunk + 1
        while node < tree.count {
            tree[node] += delta
            node += node & -node
        }
    }

    /// The flat position of chunk `chunk`'s first row.
    private func start(of chunk: Int) -> Int {
        var sum = 0, node = chunk
        while node > 0 {
            sum += tree[node]
            node -= node & -node
        }
        return sum
    }

    /// The chunk holding flat position `position`, and the offset in it.
    private func locate(_ position: Int) -> (chunk: Int, offset: Int) {
        var node = 0, remaining = position
        var step = 1
        while step * 2 < tree.count { step *= 2 }
        while step > 0 {
            let next = node + step
            if next < tree.count, tree[next] <= remaining {
                node = next
                remaining -= tree[next]
            }
            step /= 2
        }
        return (node, remaining)
    }

    // MARK: Sequence

    func makeIterator() -> Iterator { Iterator(chunks: chunks) }

    /// Walks the chunks in order.
    struct Iterator: IteratorProtocol {
        let chunks: [ArraySlice<ResultsEntry>]
        var chunk = 0
        var rows: ArraySlice<ResultsEntry>.Iterator

        init(chunks: [ArraySlice<ResultsEntry>]) {
            self.chunks = chunks
            rows = (chunks.first ?? []).makeIterator()
        }

        mutating func next() -> ResultsEntry? {
            while true {
                if let row = rows.next() { return row }
                chunk += 1
                guard chunk < chunks.count else { return nil }
                rows = chunks[chunk].makeIterator()
            }
        }
    }

    var underestimatedCount: Int { count }
}
