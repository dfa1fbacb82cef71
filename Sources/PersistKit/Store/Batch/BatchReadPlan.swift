/// How a batched fetch reads its batches, made once per fetch: the SQL of a range read and the
/// row reader (building either per batch quotes every column name again).
struct BatchReadPlan {
    let entity: EntityDescription
    /// `SELECT` of the entity's columns from the primary key `?1` on, in key order. No upper
    /// bound: the reader stops stepping at the batch's last key, and a bound would cost SQLite
    /// a comparison per row.
    let rangeSQL: String
    let reader: RowReader

    init(entity: EntityDescription) {
        self.entity = entity
        let key = SQLName.quote(SchemaSQL.primaryKey)
        rangeSQL = SchemaSQL.selectColumns(for: entity) + " WHERE \(key) >= ?1 ORDER BY \(key)"
        reader = RowReader(entity: entity)
    }
}
