import Foundation
import PersistKit

/// What `persistkit info` shows, gathered once, printed as text or JSON.
struct InfoReport {
    struct Entity {
        let name: String
        let rows: Int
        let attributes: [String]
        let relationships: [String]
    }

    let path: String
    let fileSize: Int64
    let walSize: Int64?
    let metadata: StoreInspector.Metadata
    /// Entities of the recorded model (nil: the store records none; ``tables`` then stand in).
    let entities: [Entity]?
    let tables: [StoreInspector.Table]
    let indexes: [StoreInspector.Index]
    let history: StoreInspector.HistoryExtent

    init(_ inspector: StoreInspector) throws {
        path = inspector.path
        (fileSize, walSize) = inspector.fileSizes
        metadata = try inspector.metadata()
        tables = try inspector.tables()
        indexes = try inspector.indexes().filter { !$0.table.hasPrefix("_persistkit_history") }
        history = try inspector.historyExtent()
        let rows = Dictionary(tables.map { ($0.name, $0.rows) }, uniquingKeysWith: { first, _ in first })
        entities = try inspector.recordedModel().map { model in
            model.entities.map { entity in
                Entity(name: entity.name, rows: rows[entity.name] ?? 0,
                       attributes: entity.attributes.map { "\($0.name): \($0.type.rawValue)\($0.isOptional ? "?" : "")" },
                       relationships: entity.relationships.map(Self.describe))
            }
        }
    }

    private static func describe(_ relationship: RelationshipDescription) -> String {
        var text = "\(relationship.name) → \(relationship.destinationEntityName) (\(relationship.kind.words)"
        if let inverse = relationship.inverseName { text += ", inverse \(inverse)" }
        return text + ", delete rule \(relationship.deleteRule.rawValue))"
    }

    func lines() -> [String] {
        var lines = [Output.visible(path)]
        lines.append("  file \(Count.grouped(Int(fileSize))) bytes, write-ahead log "
                     + (walSize.map { "\(Count.grouped(Int($0))) bytes" } ?? "none"))
        lines.append("  store format \(metadata.formatVersion ?? "?"), identifier \(metadata.identifier ?? "?")")
        let version = metadata.modelVersion.map(String.init) ?? "1 (not recorded)"
        lines.append("  model version \(version), hash \(metadata.versionHash.map { String($0.prefix(12)) } ?? "?"), "
                     + (metadata.modelDocument == nil ? "model document not recorded (the next save records it)" : "model document recorded"))
        if let entities {
            lines.append("Entities")
            let width = entities.map(\.name.count).max() ?? 0
            for entity in entities {
                lines.append("  " + entity.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                             + Count.rows(entity.rows))
                lines.append("    " + entity.attributes.joined(separator: ", "))
                lines += entity.relationships.map { "    " + $0 }
            }
            let joins = tables.filter { table in table.name.hasPrefix("_persistkit_join_") }
            if !joins.isEmpty {
                lines.append("Join tables")
                lines += joins.map { "  \($0.name)  \(Count.grouped($0.rows)) \($0.rows == 1 ? "link" : "links")" }
            }
        } else {
            lines.append("Tables")
            lines += tables.map { "  \($0.name)  \(Count.rows($0.rows))" }
        }
        lines.append("Indexes")
        lines += indexes.isEmpty ? ["  none"] : indexes.map {
            "  \($0.name) on \($0.table)(\($0.columns.joined(separator: ", ")))\($0.isUnique ? ", unique" : "")"
        }
        lines.append("History")
        if let oldest = history.oldest, let newest = history.newest {
            lines.append("  \(Count.grouped(history.transactions)) \(history.transactions == 1 ? "transaction" : "transactions"), "
                         + "oldest #\(oldest.number) (\(Dates.text(oldest.date))), newest #\(newest.number) (\(Dates.text(newest.date)))")
        } else {
            lines.append("  no transactions")
        }
        return lines
    }

    func json() throws -> String {
        var object: [String: Any] = [
            "path": path, "fileBytes": fileSize, "walBytes": walSize.map { $0 as Any } ?? NSNull(),
            "formatVersion": metadata.formatVersion ?? NSNull(), "storeIdentifier": metadata.identifier ?? NSNull(),
            "modelVersion": metadata.modelVersion ?? 1, "modelVersionRecorded": metadata.modelVersion != nil,
            "versionHash": metadata.versionHash ?? NSNull(), "modelDocumentRecorded": metadata.modelDocument != nil,
            "tables": tables.map { ["name": $0.name, "rows": $0.rows] },
            "indexes": indexes.map { ["name": $0.name, "table": $0.table, "columns": $0.columns, "unique": $0.isUnique] as [String: Any] },
            "history": [
                "transactions": history.transactions,
                "oldest": history.oldest.map { ["transaction": $0.number, "date": Dates.text($0.date)] as [String: Any] } ?? NSNull(),
                "newest": history.newest.map { ["transaction": $0.number, "date": Dates.text($0.date)] as [String: Any] } ?? NSNull(),
            ] as [String: Any],
        ]
        if let entities {
            object["entities"] = entities.map {
                ["name": $0.name, "rows": $0.rows, "attributes": $0.attributes, "relationships": $0.relationships] as [String: Any]
            }
        }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}

/// Counts as `persistkit` prints them: grouped by thousands the same in every locale.
enum Count {
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        let grouped = digits.enumerated().map { index, digit in
            index > 0 && (digits.count - index) % 3 == 0 ? ",\(digit)" : "\(digit)"
        }.joined()
        return number < 0 ? "-" + grouped : grouped
    }

    static func rows(_ count: Int) -> String { "\(grouped(count)) \(count == 1 ? "row" : "rows")" }
}

/// Instants as `persistkit` prints them: ISO 8601 in UTC, with milliseconds when there are any.
enum Dates {
    static func text(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        formatter.formatOptions = milliseconds.truncatingRemainder(dividingBy: 1000) == 0
            ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
