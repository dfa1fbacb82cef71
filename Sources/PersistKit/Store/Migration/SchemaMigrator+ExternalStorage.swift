import Foundation

extension SchemaMapping {
    /// An attribute whose `.externalStorage` a stage turns on or off.
    struct ExternalStorageToggle {
        /// The entity that has the attribute (in a tree, one of those that do: they share it).
        let entity: EntityDescription
        let attribute: AttributeDescription
        /// The table holding the values: the entity's, or its tree's (whose other entities'
        /// rows hold NULL in the column).
        let table: String
        /// On: large values leave the rows for files; off: every value comes back into its row.
        let turnsOn: Bool
    }

    /// The attributes of the new model kept from the old one whose `.externalStorage` changes,
    /// once per table column (a tree's attribute is one column of its table, whichever of its
    /// entities declares it).
    var externalStorageToggles: [ExternalStorageToggle] {
        var toggles: [ExternalStorageToggle] = []
        for table in entityTables {
            guard let source = table.source else { continue }
            let members = to.entities.filter { $0.tableName == table.entity.tableName }
            let sources = from.entities.filter { $0.tableName == source.tableName }
            for (column, origin) in zip(SchemaSQL.tableColumns(of: table.entity), table.columns) {
                guard case .attribute = column.role, case .column(let name) = origin,
                      let entity = members.first(where: { $0.attribute(named: column.keyName) != nil }),
                      let attribute = entity.attribute(named: column.keyName),
                      let previous = sources.lazy.compactMap({ $0.attribute(named: name) }).first else { continue }
                if attribute.allowsExternalStorage != previous.allowsExternalStorage {
                    toggles.append(ExternalStorageToggle(entity: entity, attribute: attribute, table: table.entity.tableName,
                                                         turnsOn: attribute.allowsExternalStorage))
                }
            }
        }
        return toggles
    }
}

extension SchemaMigrator {
    /// Moves the values of attributes whose `.externalStorage` the stage turns on into files
    /// (those larger than the threshold), and those of attributes it turns off back into their
    /// rows. The files written are flushed before the migration commits; the files let go are
    /// removed by the sweep when the migrated store opens (a migration that fails leaves them
    /// all named by its old rows).
    ///
    /// - Throws: ``PersistError`` `.externalDataUnavailable` naming the objects whose files are
    ///   missing or damaged when their values must come back into the rows; nothing is changed.
    func moveExternalValues() throws {
        let toggles = mapping.externalStorageToggles
        guard !toggles.isEmpty else { return }
        let folder = store.externalData
        folder.beginSave()
        do {
            for toggle in toggles {
                report((toggle.turnsOn ? "moving large values of " : "bringing back the values of ")
                       + "\(toggle.entity.name).\(toggle.attribute.name)")
                if toggle.turnsOn {
                    try moveIntoFiles(toggle, folder)
                } else {
                    try moveIntoRows(toggle, folder)
                }
            }
            try folder.flush()
            _ = folder.takeWritten()
        } catch {
            folder.discardWritten()
            throw error
        }
    }

    private func moveIntoFiles(_ toggle: SchemaMapping.ExternalStorageToggle, _ folder: ExternalDataFolder) throws {
        let table = SQLName.quote(toggle.table), column = SQLName.quote(toggle.attribute.name)
        let primaryKey = SQLName.quote(SchemaSQL.primaryKey)
        let threshold = toggle.attribute.externalStorageThreshold ?? ExternalStorage.defaultThreshold
        let select = try connection.prepare("SELECT \(primaryKey) FROM \(table) WHERE typeof(\(column)) = 'blob' "
                                            + "AND length(\(column)) > ? ORDER BY \(primaryKey)")
        try select.bind([.integer(Int64(threshold))])
        var keys: [Int64] = []
        while try select.step() { keys.append(select.int64(at: 0)) }
        let read = try connection.prepare("SELECT \(column) FROM \(table) WHERE \(primaryKey) = ?")
        let update = try connection.prepare("UPDATE \(table) SET \(column) = ? WHERE \(primaryKey) = ?")
        for key in keys {
            read.reset()
            try read.bind([.integer(key)])
            guard try read.step(), case .blob(let data) = read.value(at: 0) else { continue }
            read.reset()
            let reference = try folder.newFile(holding: data, for: "\(toggle.entity.name).\(toggle.attribute.name)")
            update.reset()
            try update.bind([reference.storedValue, .integer(key)])
            try update.run()
        }
    }

    private func moveIntoRows(_ toggle: SchemaMapping.ExternalStorageToggle, _ folder: ExternalDataFolder) throws {
        let table = SQLName.quote(toggle.table), column = SQLName.quote(toggle.attribute.name)
        let primaryKey = SQLName.quote(SchemaSQL.primaryKey)
        // A tree's rows are named after their own entity.
        let rowEntity = toggle.entity.inheritance == nil ? SQLName.literal(toggle.entity.name) : SQLName.quote(EntityInheritance.entityColumn)
        let select = try connection.prepare("SELECT \(primaryKey), \(column), \(rowEntity) FROM \(table) "
                                            + "WHERE typeof(\(column)) = 'text' ORDER BY \(primaryKey)")
        var references: [(key: Int64, reference: ExternalReference?, entity: String)] = []
        while try select.step() {
            references.append((select.int64(at: 0), ExternalReference(select.string(at: 1)), select.string(at: 2)))
        }
        let update = try connection.prepare("UPDATE \(table) SET \(column) = ? WHERE \(primaryKey) = ?")
        var problems: [(key: Int64, entity: String, problem: String)] = []
        for (key, reference, entity) in references {
            guard let reference else {
                problems.append((key, entity, "it holds text that names no file"))
                continue
            }
            switch folder.contents(of: reference) {
            case .success(let data):
                update.reset()
                try update.bind([.blob(data), .integer(key)])
                try update.run()
            case .failure(let failure):
                problems.append((key, entity, failure.error(entity: entity, attribute: toggle.attribute.name,
                                                            file: folder.filePath(reference), objectIDs: []).message))
            }
        }
        guard !problems.isEmpty else { return }
        let objects = problems.map { objectID($0.entity, $0.key) }
        throw PersistError(.externalDataUnavailable,
            "Cannot migrate \(toggle.entity.name).\(toggle.attribute.name) to keep its values in the rows: \(problems.count) "
            + "value\(problems.count == 1 ? "'s file is" : "s' files are") missing or damaged; nothing was changed",
            entity: toggle.entity.name, attribute: toggle.attribute.name, objectIDs: objects,
            problems: problems.map { "\($0.entity) \($0.key): \($0.problem)" }, store: folder.path)
    }
}
