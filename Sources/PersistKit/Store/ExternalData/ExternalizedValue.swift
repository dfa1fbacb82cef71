/// A value a save moved into a file: which row of the save's plan, which slot, and the
/// reference the row holds now. The context's object takes the reference after the commit,
/// so that it holds what its row holds (see `SQLiteStore.externalize(_:_:)`).
struct ExternalizedValue {
    enum Row {
        /// The plan's inserted row at this position (counted across its runs).
        case insert(Int)
        /// The plan's update at this index.
        case update(Int)
    }

    let row: Row
    let slot: Int
    let reference: ExternalReference
}
