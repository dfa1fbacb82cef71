import Foundation

/// The sections of a sorted results list: contiguous runs of its flat positions.
///
/// Section `i` spans `starts[i] ..< (starts[i + 1] or count)`. A well-formed layout has no
/// empty section: `starts` begins at 0 (unless `count` is 0, when there are no sections) and
/// increases strictly, below `count`. The one exception is a layout of a single section, which
/// may be empty: an unsectioned controller's one section, which stays when its last row goes.
struct SectionLayout: Sendable, Equatable {
    /// The section names; names identify sections across changes.
    var names: [String]
    /// The flat index of each section's first row.
    var starts: [Int]
    /// The number of rows in all sections.
    var count: Int

    init(names: [String], starts: [Int], count: Int) {
        self.names = names
        self.starts = starts
        self.count = count
    }

    /// A layout from the row count of each section.
    init(names: [String], counts: [Int]) {
        var starts: [Int] = []
        starts.reserveCapacity(counts.count)
        var total = 0
        for rows in counts {
            starts.append(total)
            total += rows
        }
        self.init(names: names, starts: starts, count: total)
    }

    /// The number of sections.
    var sectionCount: Int { starts.count }

    /// The flat index just past section `section`'s last row.
    func end(of section: Int) -> Int {
        section + 1 < starts.count ? starts[section + 1] : count
    }

    /// The number of rows of section `section`.
    func rowCount(of section: Int) -> Int { end(of: section) - starts[section] }

    /// The section that holds flat position `position` (`0 ..< count` in a well-formed layout).
    func section(containing position: Int) -> Int {
        var low = 0, high = starts.count          // first start greater than position
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= position { low = middle + 1 } else { high = middle }
        }
        return max(low - 1, 0)
    }

    /// The index path of flat position `position`.
    func path(of position: Int) -> IndexPath {
        let section = section(containing: position)
        return IndexPath(item: position - starts[section], section: section)
    }

    /// The flat position of an index path, or nil when the path names no row of the layout.
    func position(of path: IndexPath) -> Int? {
        guard path.count == 2, path[0] >= 0, path[0] < starts.count, path[1] >= 0 else { return nil }
        let position = starts[path[0]] + path[1]
        return position < end(of: path[0]) ? position : nil
    }

    /// What makes the layout malformed, or nil when it is well-formed.
    var problem: String? {
        if names.count != starts.count {
            return "\(names.count) section names for \(starts.count) sections"
        }
        if count < 0 { return "negative row count \(count)" }
        guard let first = starts.first else {
            return count == 0 ? nil : "\(count) rows in no section"
        }
        if first != 0 { return "the first section starts at \(first), not 0" }
        for section in 1..<starts.count where starts[section] <= starts[section - 1] {
            return "section \(section - 1) is empty or its start is out of order"
        }
        if let last = starts.last, last >= count, starts.count > 1 { return "the last section is empty" }
        return nil
    }
}
