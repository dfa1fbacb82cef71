/// How a batched fetch reads its batches, made once per fetch: the SQL of a range read and the
/// row reader (building either per batch quotes every column name again).
struct BatchReadPlan {
    let entity: EntityDescription
    /// `SELECT` of the entity's columns for the primary keys `?1 ... ?2`, in key order.
    let rangeSQL: String
    let reader: RowReader

    init(entity: EntityDescription) {
        self.entity = entity
        let key = SQLName.quote(SchemaSQL.primaryKey)
        rangeSQL = SchemaSQL.selectColumns(for: entity) + " WHERE \(key) BETWEEN ?1 AND ?2 ORDER BY \(key)"
        reader = RowReader(entity: entity)
    }
}
