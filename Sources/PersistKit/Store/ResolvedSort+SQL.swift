extension ResolvedSort {
    /// `"due" ASC NULLS LAST`, with the collation when it is not BINARY.
    var sql: String {
        var clause = SQLName.quote(name)
        if let collation = TextFunctions.collationName(collation) { clause += " COLLATE \(collation)" }
        clause += ascending ? " ASC" : " DESC"
        clause += nilsFirst ? " NULLS FIRST" : " NULLS LAST"
        return clause
    }
}
