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
        /// Each of the table's columns' source (`SchemaSQL.tableColumns(of: entity)`), in the
        /// same order (empty for a new entity).
        let columns: [ColumnSource]
        /// For the table of an inheritance tree: what happens to the tree's rows.
        var tree: TreeRows?
    }

    /// What a migration does to the rows of an inheritance tree's table (by their `_entity`),
    /// beyond its columns.
    struct TreeRows {
        /// Entities of the old tree that the new one has under another name: their rows'
        /// `_entity` is rewritten.
        var renamed: [(from: String, to: String)] = []
        /// Entities of the old tree the new model no longer has: their rows are deleted, as
        /// Core Data's migrations drop the objects of a removed entity.
        var removed: [String] = []
        /// Whether the old table has an `_entity` column (false: a plain entity becomes the
        /// root of a tree, and its rows take its name).
        var hadEntityColumn = true
        /// Values given to a sub-entity's rows only, where they have none: its new attribute's
        /// default, or its attribute made required with a default.
        var fills: [Fill] = []
        /// A sub-entity's required attributes: after the fills, its rows must have a value.
        var required: [Fill] = []
    }

    /// A sub-entity's column, for its own rows and its sub-entities'.
    struct Fill {
        let entity: String
        let attribute: String
        let column: String
        /// The rows' `_entity` values: the sub-entity and every entity below it.
        let entities: [String]
        let value: SQLValue
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
