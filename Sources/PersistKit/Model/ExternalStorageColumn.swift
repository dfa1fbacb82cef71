/// A column whose values may be references to files: one per attribute declared
/// `.externalStorage`, once per table (an attribute of an inheritance tree is one column of
/// the tree's table, whichever entities have it).
struct ExternalStorageColumn: Equatable {
    /// The table: the entity's, or its inheritance tree's.
    let table: String
    /// The column, named after the attribute.
    let column: String
    /// Whether the table is an inheritance tree's: its `_entity` column names each row's entity.
    let isInTree: Bool
}
