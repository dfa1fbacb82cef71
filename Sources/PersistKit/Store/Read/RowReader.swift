import CSQLite
import Foundation

/// Reads an entity's rows into objects: the column plan is computed once per entity, each row
/// is read with typed column calls straight into the object's storage.
struct RowReader {
    let entity: EntityDescription
    private let columnTypes: [Int32]
    private let optional: [Bool]
    private let checkDecoding: [Bool]

    init(entity: EntityDescription) {
        self.entity = entity
        columnTypes = entity.columns.map { column in
            switch column.type.columnType {
            case "INTEGER": return SQLITE_INTEGER
            case "REAL": return SQLITE_FLOAT
            case "TEXT": return SQLITE_TEXT
            default: return SQLITE_BLOB
            }
        }
        optional = entity.columns.map(\.isOptional)
        checkDecoding = entity.columns.map { column in
            guard column.slot < entity.attributes.count else { return false }
            let attribute = entity.attributes[column.slot]
            guard attribute.index < entity.valueTypes.count, let valueType = entity.valueTypes[attribute.index] else {
                return false
            }
            // Enums (a raw value that may name no case) and JSON, UUIDs, narrow integers.
            return attribute.type.needsDecodingCheck || !PlainAttributeTypes.isPlain(valueType)
        }
    }

    /// Reads the attribute columns of the current row (after `_pk` and `_version`).
    @inline(__always)
    func readStorage(_ statement: SQLiteStatement, key: Int64) throws -> ContiguousArray<SQLValue> {
        let count = columnTypes.count
        // reserveCapacity and append are specialized for SQLValue (one allocation, then stores).
        // ContiguousArray(repeating:count:) and the unsafeUninitializedCapacity initializer call
        // the standard library's generic allocation (a metadata lookup per row, twice the cost).
        var storage = ContiguousArray<SQLValue>()
        storage.reserveCapacity(count)
        for slot in 0..<count {
            storage.append(try readValue(statement, slot: slot, key: key))
        }
        return storage
    }

    /// Reads the attribute columns of the current row into `storage`, an object's own buffer
    /// of the entity's slot count, overwriting it in place (a refilled object: no new buffer).
    /// On a failure the buffer holds part of the row: the caller drops the object.
    @inline(__always)
    func readStorage(_ statement: SQLiteStatement, key: Int64, into storage: inout ContiguousArray<SQLValue>) throws {
        let count = columnTypes.count
        guard storage.count == count else {
            storage = try readStorage(statement, key: key)
            return
        }
        // One uniqueness check for the row, not one per slot.
        try storage.withUnsafeMutableBufferPointer { (slots: inout UnsafeMutableBufferPointer<SQLValue>) throws(PersistError) in
            for slot in 0..<count {
                slots[slot] = try readValue(statement, slot: slot, key: key)
            }
        }
    }

    /// One column of the current row as slot `slot`'s value. Typed throws: the values come
    /// back in registers (a `Result` holding a `PersistError` was copied with `memcpy` twice).
    @inline(__always)
    private func readValue(_ statement: SQLiteStatement, slot: Int, key: Int64) throws(PersistError) -> SQLValue {
        let column = Int32(slot + 2)
        // The column's value object, read with sqlite3_value_*: each sqlite3_column_* call
        // enters the connection's mutex and checks for a failed allocation, and a value
        // took two or three of them. The value is "unprotected" (no mutex held while it is
        // read), which is safe here: a statement is used by one thread at a time, that of
        // the reader or writer it belongs to.
        guard let cell = sqlite3_column_value(statement.handle, column) else {
            throw mismatch(slot: slot, found: statement.value(at: column), key: key)
        }
        let actual = sqlite3_value_type(cell)
        let expected = columnTypes[slot]
        let value: SQLValue
        if actual == expected {
            switch expected {
            case SQLITE_INTEGER: value = .integer(sqlite3_value_int64(cell))
            case SQLITE_FLOAT: value = .real(sqlite3_value_double(cell))
            case SQLITE_TEXT: value = .text(Self.text(of: cell))
            default: value = .blob(Self.data(of: cell))
            }
        } else if actual == SQLITE_NULL && optional[slot] {
            value = .null
        } else if actual == SQLITE_INTEGER && expected == SQLITE_FLOAT {
            value = .real(Double(sqlite3_value_int64(cell)))
        } else if actual == SQLITE_TEXT && expected == SQLITE_BLOB && entity.externalStorageSlots.contains(slot),
                  case let text = Self.text(of: cell), ExternalReference(text) != nil {
            // An `.externalStorage` value kept in a file: its reference, read when the property is.
            value = .text(text)
        } else {
            throw mismatch(slot: slot, found: statement.value(at: column), key: key)
        }
        if checkDecoding[slot], !value.isNull, let valueType = entity.valueTypes[slot],
           valueType.init(storedValue: value) == nil {
            throw mismatch(slot: slot, found: value, key: key)
        }
        return value
    }

    /// A TEXT value's string (the text first, then its length, as SQLite asks).
    @inline(__always)
    private static func text(of cell: OpaquePointer) -> String {
        guard let text = sqlite3_value_text(cell) else { return "" }
        let count = Int(sqlite3_value_bytes(cell))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// A BLOB value's bytes.
    @inline(__always)
    private static func data(of cell: OpaquePointer) -> Data {
        guard let bytes = sqlite3_value_blob(cell) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_value_bytes(cell)))
    }

    private func mismatch(slot: Int, found: SQLValue, key: Int64) -> PersistError {
        let column = entity.columns[slot]
        let declared = slot < entity.attributes.count && !entity.attributes[slot].valueTypeName.isEmpty
            ? entity.attributes[slot].valueTypeName : column.type.rawValue
        return PersistError(.typeMismatch,
            "The store holds \(found.storageClassName) \(found) for \(entity.name).\(column.name), which is declared \(declared) (row \(key))",
            entity: entity.name, attribute: column.keyName)
    }
}
