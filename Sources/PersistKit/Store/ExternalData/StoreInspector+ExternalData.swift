import Foundation

extension StoreInspector {
    /// What `persistkit check` finds wrong with the values kept outside the database: a
    /// reference that names no file, a file missing or of the wrong size (a fetch reads those
    /// values as nil, `value(forKey:)` throws), and files no row names (the next open for
    /// writing removes them). Looks at the files' sizes, reads none; changes nothing.
    package func externalDataProblems(against model: ManagedObjectModel) throws -> [String] {
        guard model.hasExternalStorage else { return [] }
        let folder = ExternalDataFolder(storePath: realPath)
        var problems: [String] = []
        var referenced = Set<String>()
        for external in model.externalStorageColumns {
            let column = SQLName.quote(external.column)
            // A tree's rows are named after their own entity.
            let rowEntity = external.isInTree ? SQLName.quote(EntityInheritance.entityColumn) : SQLName.literal(external.table)
            let statement = try connection.prepare("SELECT \(SQLName.quote(SchemaSQL.primaryKey)), \(column), \(rowEntity) FROM "
                + "\(SQLName.quote(external.table)) WHERE typeof(\(column)) = 'text' ORDER BY 1")
            while try statement.step() {
                let row = statement.int64(at: 0), text = statement.string(at: 1), entity = statement.string(at: 2)
                let owner = "\(entity).\(external.column) of \(entity) \(row)"
                guard let reference = ExternalReference(text) else {
                    problems.append("external: \(owner) holds text that names no file")
                    continue
                }
                referenced.insert(reference.fileName)
                switch folder.problem(with: reference) {
                case nil: break
                case .missing?: problems.append("external: \(owner) names the file \(folder.filePath(reference)), which is missing")
                case .wrongSize(let size)?:
                    problems.append("external: \(owner) names the file \(folder.filePath(reference)), which has \(size) bytes, "
                                    + "not the value's \(reference.byteCount)")
                case .unreadable(let reason)?:
                    problems.append("external: \(owner) names the file \(folder.filePath(reference)), which cannot be read (\(reason))")
                }
            }
        }
        let unnamed = folder.fileNames().filter { ExternalDataSweep.isOwnFileName($0) && !referenced.contains($0) }
        if !unnamed.isEmpty {
            problems.append("external: \(unnamed.count) file\(unnamed.count == 1 ? "" : "s") of \(folder.path) no row names "
                            + "(left by a save that did not finish; the next open for writing removes \(unnamed.count == 1 ? "it" : "them"))")
        }
        return problems
    }
}
