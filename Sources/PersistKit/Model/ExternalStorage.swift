import Foundation

/// The rules of `.externalStorage` that belong to the model: the default threshold, what an
/// attribute's options declare, and what a model may not ask of such an attribute.
///
/// Where the values go is the store's business: `Store/ExternalData/` keeps the files and
/// writes and releases them with the saves (`ExternalDataFolder`, `SQLiteStore+ExternalData`),
/// `Object/ManagedObject+ExternalData.swift` and `Context/ManagedObjectContext+ExternalData.swift`
/// read them when a property is read, `Store/Migration/SchemaMigrator+ExternalStorage.swift`
/// moves them when a migration turns the option on or off.
@usableFromInline
enum ExternalStorage {
    /// Values larger than this many bytes go to files when the attribute names no threshold:
    /// 100 KB, the size Core Data uses.
    @inlinable static var defaultThreshold: Int { 102_400 }

    /// The threshold an attribute's options declare, or nil when they do not ask for external
    /// storage.
    ///
    /// - Throws: ``PersistError`` `.invalidModel` naming the attribute for external storage
    ///   declared twice or with a negative threshold.
    static func threshold(declaredBy options: [AttributeOptionKind], entity: String, attribute: String) throws -> Int? {
        var threshold: Int?
        for case .externalStorage(let declared) in options {
            guard threshold == nil else {
                throw PersistError(.invalidModel, "\(entity).\(attribute) declares .externalStorage twice", entity: entity, attribute: attribute)
            }
            guard declared >= 0 else {
                throw PersistError(.invalidModel, "\(entity).\(attribute) has a negative external storage threshold (\(declared))",
                                   entity: entity, attribute: attribute)
            }
            threshold = declared
        }
        return threshold
    }

    /// Refuses what cannot be made exact for values kept in files: a uniqueness constraint
    /// (SQLite's unique index would compare file names, not values), and external storage on
    /// an attribute that is not binary (a model document can say so).
    static func checkModel(_ entities: [EntityDescription]) throws {
        for entity in entities {
            for attribute in entity.attributes where attribute.allowsExternalStorage && attribute.type != .binary {
                throw PersistError(.invalidModel,
                    "\(entity.name).\(attribute.name) is \(attribute.type.nameWithArticle): only binary (Data) attributes can be stored externally",
                    entity: entity.name, attribute: attribute.name)
            }
            for constraint in entity.uniquenessConstraints {
                for key in constraint {
                    guard let attribute = entity.attributes.first(where: { $0.name.lowercased() == key.lowercased() }),
                          attribute.allowsExternalStorage else { continue }
                    throw PersistError(.invalidModel,
                        "\(entity.name).\(attribute.name) is stored externally (.externalStorage), so it cannot be unique: a large value "
                        + "lives in a file, and the store can only compare file names, not values. Keep a digest of the value "
                        + "in an attribute of its own and make that unique",
                        entity: entity.name, attribute: attribute.name)
                }
            }
        }
    }
}

extension ExternalStorage {
    /// Refuses a predicate comparison that needs an `.externalStorage` attribute's value: a
    /// large value is in a file, not in the row SQL compares, so only nil can be tested.
    static func checkComparison(_ node: PredicateNode, on attribute: AttributeDescription, of entity: EntityDescription) throws {
        guard attribute.allowsExternalStorage else { return }
        switch node {
        case .compare(_, .equal, .null), .compare(_, .notEqual, .null): return
        case .inList(_, let values) where values.allSatisfy(\.isNull): return
        default:
            throw PersistError(.invalidPredicate,
                "\(entity.name).\(attribute.name) is stored externally (.externalStorage): its large values are in files, not in the "
                + "rows a predicate reads, so a predicate can only test it for nil (\(attribute.name) == nil, \(attribute.name) != nil); "
                + "to find objects by their data, keep a digest or a size in an attribute of its own",
                entity: entity.name, attribute: attribute.name)
        }
    }
}

extension ExternalStorage {
    /// Refuses a batch update that sets an `.externalStorage` attribute to a value above its
    /// threshold: one `UPDATE` gives every row the same value, and a file has one row, so the
    /// value would have to stay in every row. nil and small values are set as any other.
    static func checkBatchUpdate(of entity: EntityDescription, slots: [Int], values: ContiguousArray<SQLValue>) throws {
        for slot in slots where slot < values.count {
            let attribute = entity.attributes[slot]
            guard let threshold = attribute.externalStorageThreshold, case .blob(let data) = values[slot], data.count > threshold else { continue }
            throw PersistError(.invalidRequest,
                "Batch update of \(entity.name): \(attribute.name) is stored externally (.externalStorage) and the new value has "
                + "\(data.count) bytes, more than its threshold (\(threshold)): a batch update writes no files. Set the value on the "
                + "objects and save them (each gets a file of its own); nothing was changed",
                entity: entity.name, attribute: attribute.name)
        }
    }
}

extension ManagedObjectModel {
    /// Whether any attribute of the model may keep its values in files.
    var hasExternalStorage: Bool { entities.contains { !$0.externalStorageSlots.isEmpty } }

    /// Every column that may hold references to files, once each, in the model's order: what
    /// the store's triggers watch, the sweep and `persistkit check` read.
    var externalStorageColumns: [ExternalStorageColumn] {
        var columns: [ExternalStorageColumn] = []
        for entity in entities {
            for slot in entity.externalStorageSlots {
                let column = ExternalStorageColumn(table: entity.tableName, column: entity.attributes[slot].name,
                                                   isInTree: entity.inheritance != nil)
                if !columns.contains(column) { columns.append(column) }
            }
        }
        return columns
    }
}
