import Foundation

/// Replays a validated ``ChangeSet`` on old sections, section by section: what
/// ``ChangeSet/applied(to:newElement:)`` does once the new section counts are known.
struct ChangeSetReplay<Element> {
    /// The change being replayed.
    let change: ChangeSet
    /// The sections before the change.
    let old: [[Element]]
    /// Old paths of rows that leave: deleted rows and move sources.
    private let leaving: Set<IndexPath>
    /// For each move destination (new path), its source (old path).
    private let moveSource: [IndexPath: IndexPath]
    /// For each updated row's old path, its new path.
    private let updateDestination: [IndexPath: IndexPath]
    /// New paths of inserted rows.
    private let inserted: Set<IndexPath>

    init(change: ChangeSet, old: [[Element]]) {
        self.change = change
        self.old = old
        var leaving = Set<IndexPath>(change.deletedRows)
        var moveSource: [IndexPath: IndexPath] = [:]
        for move in change.movedRows {
            leaving.insert(move.from)
            moveSource[move.to] = move.from
        }
        var updateDestination: [IndexPath: IndexPath] = [:]
        for update in change.updatedRows { updateDestination[update.from] = update.to }
        self.leaving = leaving
        self.moveSource = moveSource
        self.updateDestination = updateDestination
        inserted = Set(change.insertedRows)
    }

    /// The rows of an old section that stay in it, with their old items.
    private typealias Staying = [(item: Int, element: Element)]

    /// The new sections, with `counts` rows each (as validation computed them).
    func newSections(counts: [Int], newElement: (IndexPath, Element?) throws -> Element) throws -> [[Element]] {
        var result: [[Element]] = []
        result.reserveCapacity(counts.count)
        var oldSection = 0
        for (section, count) in counts.enumerated() {
            // The rows that stay, from the old section this one continues (none if inserted).
            var staying: Staying = []
            var source = -1
            if !change.insertedSections.contains(section) {
                while change.deletedSections.contains(oldSection) { oldSection += 1 }
                guard oldSection < old.count else { throw broken("new section \(section) continues no old section") }
                source = oldSection
                staying = stayingRows(of: oldSection)
                oldSection += 1
            }
            result.append(try rows(ofNew: section, count: count, source: source, staying: staying, newElement: newElement))
        }
        return result
    }

    /// The rows of old section `section` that neither are deleted nor move.
    private func stayingRows(of section: Int) -> Staying {
        var staying: Staying = []
        for (item, element) in old[section].enumerated() where !leaving.contains(IndexPath(item: item, section: section)) {
            staying.append((item, element))
        }
        return staying
    }

    /// New section `section`: its inserted and moved-in rows at their paths, the staying rows of
    /// old section `source` (-1 for an inserted section) in order around them.
    private func rows(ofNew section: Int, count: Int, source: Int, staying: Staying,
                      newElement: (IndexPath, Element?) throws -> Element) throws -> [Element] {
        var rows: [Element] = []
        rows.reserveCapacity(count)
        var next = 0
        for item in 0..<count {
            let path = IndexPath(item: item, section: section)
            if inserted.contains(path) {
                rows.append(try newElement(path, nil))
            } else if let from = moveSource[path] {
                rows.append(try newElement(path, try movedElement(from: from)))
            } else {
                guard next < staying.count else { throw broken("section \(section) has too few rows") }
                rows.append(try stayingElement(staying[next], from: source, at: path, newElement: newElement))
                next += 1
            }
        }
        guard next == staying.count else { throw broken("section \(section) has too many rows") }
        return rows
    }

    /// The old element a move takes from `from`.
    private func movedElement(from: IndexPath) throws -> Element {
        guard from.count == 2, old.indices.contains(from[0]), old[from[0]].indices.contains(from[1]) else {
            throw broken("move source \(ChangeSet.text(from)) is out of range")
        }
        return old[from[0]][from[1]]
    }

    /// A staying row at its new path: its old element, or the new one when it is updated.
    private func stayingElement(_ row: (item: Int, element: Element), from source: Int, at path: IndexPath,
                                newElement: (IndexPath, Element?) throws -> Element) throws -> Element {
        let oldPath = IndexPath(item: row.item, section: source)
        guard let destination = updateDestination[oldPath] else { return row.element }
        guard destination == path else {
            throw broken("updated row \(ChangeSet.text(oldPath)) lands at \(ChangeSet.text(path)), not \(ChangeSet.text(destination))")
        }
        return try newElement(path, row.element)
    }

    private func broken(_ what: String) -> PersistError {
        PersistError(.misuse, "Invalid change set: \(what) (\(change))")
    }
}
