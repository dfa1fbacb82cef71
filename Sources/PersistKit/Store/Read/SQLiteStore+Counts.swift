extension SQLiteStore {
    /// The number of stored objects of each entity of the model (one `count(*)` per table).
    func objectCounts() throws -> [String: Int] {
        try withReader { connection in
            var counts: [String: Int] = [:]
            for entity in model.entities {
                counts[entity.name] = Int(try connection.singleInt("SELECT count(*) FROM \(SchemaSQL.source(of: entity))") ?? 0)
            }
            return counts
        }
    }
}
