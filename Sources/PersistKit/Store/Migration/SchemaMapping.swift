/// How one migration stage maps the stored schema from the old model's tables to the new
/// model's (Core Data's mapping model): where each new table's rows and columns come from.
/// The planner (`Migration/`) computes it by comparing the two models; ``SchemaMigrator``
/// carries it out in SQL.
struct SchemaMapping {
    /// Where the values of a new table column come from, for the rows the store already has.
    enum ColumnSource: Equatable {
        /// The old column of that name, values unchanged.
        case column(String)
        /// The old column of that name, its NULLs replaced by the value (optional → required
        /// with a default).
        case columnOrValue(String, SQLValue)
        /// A new column: every existing row gets the value (the default, or NULL).
        case value(SQLValue)
    }

    /// An entity table of the new model.
    struct EntityTable {
        /// The entity in the new model.
        let entity: EntityDescription
        /// The entity in the old model, or nil for a new entity (a new, empty table).
        let source: EntityDescription?
        /// Each of `entity.columns`' source, in the same order (empty for a new entity).
        let columns: [ColumnSource]
    }

    /// A join table of the new model.
    struct JoinTableMapping {
        let table: JoinTable
        /// The old model's table holding the same links, or nil for a new relationship.
        let source: JoinTable?
        /// Whether the old table's owner column holds the new table's destinations (the other
        /// side of the relationship owns the table now).
        let swapsEnds: Bool
    }

    let from: ManagedObjectModel
    let to: ManagedObjectModel
    /// Every entity of the new model, in its order.
    let entityTables: [EntityTable]
    /// Every join table of the new model.
    let joinTables: [JoinTableMapping]
    /// Old entity tables whose entity is gone (their objects go with them).
    let droppedEntityTables: [String]
    /// Old join tables whose relationship is gone.
    let droppedJoinTables: [String]
}
