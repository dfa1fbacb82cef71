import Foundation
import PersistKit

/// An object of a model loaded from a document as `persistkit fetch` prints it: its primary
/// key, its attributes by name, and its relationships as references (`Project #3`).
struct RowFormatter {
    let entity: EntityDescription

    /// The table's header: `#`, the attributes, the relationships.
    var header: [String] { ["#"] + entity.attributes.map(\.name) + entity.relationships.map(\.name) }

    /// One object's cells, control characters made visible.
    func cells(_ object: ManagedObject) throws -> [String] {
        var cells = ["#\(object.objectID.primaryKey ?? 0)"]
        for attribute in entity.attributes {
            cells.append(Self.text(try object.value(forKey: attribute.name), type: attribute.type))
        }
        for relationship in entity.relationships {
            let related = try object.relatedObjects(forKey: relationship.name)
            cells.append(relationship.kind == .toOne && related.isEmpty ? "nil" : related.map(Self.reference).joined(separator: ", "))
        }
        return cells
    }

    /// The rows under the header, each column as wide as its widest cell.
    func table(_ rows: [[String]]) -> [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        } + ["(\(Count.grouped(rows.count)) \(rows.count == 1 ? "object" : "objects"))"]
    }

    /// One object as a JSON object: `"#"` its primary key, then its attributes and its
    /// relationships (`{"entity": "Project", "key": 3}`, or an array of them), in model order.
    func json(_ object: ManagedObject) throws -> String {
        var fields = ["\"#\": \(object.objectID.primaryKey ?? 0)"]
        for attribute in entity.attributes {
            fields.append(Self.quoted(attribute.name) + ": " + Self.json(try object.value(forKey: attribute.name), type: attribute.type))
        }
        for relationship in entity.relationships {
            let related = try object.relatedObjects(forKey: relationship.name).map(Self.jsonReference)
            let value = relationship.kind == .toOne ? related.first ?? "null" : "[" + related.joined(separator: ", ") + "]"
            fields.append(Self.quoted(relationship.name) + ": " + value)
        }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    private static func reference(_ object: ManagedObject) -> String {
        "\(object.objectID.entityName) #\(object.objectID.primaryKey ?? 0)"
    }

    private static func jsonReference(_ object: ManagedObject) -> String {
        "{\"entity\": \(quoted(object.objectID.entityName)), \"key\": \(object.objectID.primaryKey ?? 0)}"
    }

    /// A value for the table.
    static func text(_ value: Any?, type: AttributeType) -> String {
        switch value {
        case nil: return "nil"
        case let date as Date: return Dates.text(date)
        case let data as Data: return "<\(Count.grouped(data.count)) bytes>"
        case let uuid as UUID: return uuid.uuidString
        case let url as URL: return Output.visible(url.absoluteString)
        case let string as String: return Output.visible(string)
        case let value?: return "\(value)"
        }
    }

    /// A value as JSON: dates in ISO 8601, data in base64, a `json` attribute's own JSON.
    static func json(_ value: Any?, type: AttributeType) -> String {
        switch value {
        case nil: return "null"
        case let bool as Bool: return bool ? "true" : "false"
        case let date as Date: return quoted(Dates.text(date))
        case let data as Data: return quoted(data.base64EncodedString())
        case let uuid as UUID: return quoted(uuid.uuidString)
        case let url as URL: return quoted(url.absoluteString)
        case let string as String:
            if type == .json, let parsed = try? JSONSerialization.jsonObject(with: Data(string.utf8), options: .fragmentsAllowed),
               let data = try? JSONSerialization.data(withJSONObject: parsed, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes]) {
                return String(decoding: data, as: UTF8.self)
            }
            return quoted(string)
        case let value?: return "\(value)"
        }
    }

    /// A JSON string literal (JSON escapes C0 itself).
    static func quoted(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed, .withoutEscapingSlashes])) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
