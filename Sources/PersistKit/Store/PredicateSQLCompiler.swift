/// Compiles a resolved predicate to an SQL `WHERE` expression with bound values.
///
/// Each comparison compiles to an expression that is never NULL, so SQL's three-valued logic
/// collapses to the two-valued logic the in-memory evaluator uses.
enum PredicateSQLCompiler {
    struct Compiled {
        var sql: String
        var bindings: [SQLValue]
    }

    static func compile(_ node: PredicateNode, entity: EntityDescription) throws -> Compiled {
        var bindings: [SQLValue] = []
        let sql = try compile(node, entity: entity, bindings: &bindings)
        return Compiled(sql: sql, bindings: bindings)
    }

    private static func attribute(_ name: String, in entity: EntityDescription) throws -> AttributeDescription {
        guard let attribute = entity.attribute(named: name) else {
            throw PersistError(.invalidPredicate, "\(entity.name) has no attribute named \(name)",
                               entity: entity.name, attribute: name)
        }
        return attribute
    }

    private static func compile(_ node: PredicateNode, entity: EntityDescription, bindings: inout [SQLValue]) throws -> String {
        switch node {
        case .constant(let value):
            return value ? "1" : "0"
        case .invalid(let error):
            throw error
        case .and(let nodes):
            if nodes.isEmpty { return "1" }
            return "(" + (try nodes.map { try compile($0, entity: entity, bindings: &bindings) }).joined(separator: " AND ") + ")"
        case .or(let nodes):
            if nodes.isEmpty { return "0" }
            return "(" + (try nodes.map { try compile($0, entity: entity, bindings: &bindings) }).joined(separator: " OR ") + ")"
        case .not(let inner):
            return "(NOT " + (try compile(inner, entity: entity, bindings: &bindings)) + ")"
        case .compare(let name, let op, let value):
            let attribute = try attribute(name, in: entity)
            let column = SQLName.quote(attribute.name)
            switch (op, value) {
            case (.equal, .null): return "(\(column) IS NULL)"
            case (.notEqual, .null): return "(\(column) IS NOT NULL)"
            case (_, .null): return "0"
            case (.equal, _):
                bindings.append(value)
                return attribute.isOptional ? "(\(column) IS ?)" : "(\(column) = ?)"
            case (.notEqual, _):
                bindings.append(value)
                return attribute.isOptional ? "(\(column) IS NOT ?)" : "(\(column) <> ?)"
            default:
                bindings.append(value)
                return attribute.isOptional
                    ? "(\(column) IS NOT NULL AND \(column) \(op.sql) ?)"
                    : "(\(column) \(op.sql) ?)"
            }
        case .text(let name, let op, let pattern, let options):
            let attribute = try attribute(name, in: entity)
            bindings.append(.text(pattern))
            return "\(TextFunctions.functionName(op, options.textOptions))(\(SQLName.quote(attribute.name)), ?)"
        case .inList(let name, let values):
            let attribute = try attribute(name, in: entity)
            let column = SQLName.quote(attribute.name)
            let nonNull = values.filter { !$0.isNull }
            let matchesNull = values.count != nonNull.count
            var parts: [String] = []
            if !nonNull.isEmpty {
                bindings.append(contentsOf: nonNull)
                let list = Array(repeating: "?", count: nonNull.count).joined(separator: ", ")
                parts.append(attribute.isOptional ? "(\(column) IS NOT NULL AND \(column) IN (\(list)))" : "(\(column) IN (\(list)))")
            }
            if matchesNull { parts.append("(\(column) IS NULL)") }
            if parts.isEmpty { return "0" }
            return parts.count == 1 ? parts[0] : "(" + parts.joined(separator: " OR ") + ")"
        }
    }
}
