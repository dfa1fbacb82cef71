/// What changed between two states of a sorted results list, in flat positions.
struct ResultsDiffInput: Sendable {
    /// The sections before the change.
    var old: SectionLayout
    /// The sections after the change.
    var new: SectionLayout
    /// Old flat positions of the objects no longer in the results.
    var removed: [Int]
    /// New flat positions of the objects new to the results.
    var inserted: [Int]
    /// The survivors that changed in any attribute: their positions in the old and new lists.
    ///
    /// Every other survivor is unchanged: it kept its sort keys, hence its section and its
    /// order relative to the other unchanged survivors.
    var updated: [(old: Int, new: Int)]

    init(old: SectionLayout, new: SectionLayout, removed: [Int] = [], inserted: [Int] = [],
         updated: [(old: Int, new: Int)] = []) {
        self.old = old
        self.new = new
        self.removed = removed
        self.inserted = inserted
        self.updated = updated
    }
}
