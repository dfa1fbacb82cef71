import Foundation

// To-manys in format strings: `ANY`/`ALL`/`NONE` key paths, `tags CONTAINS %@`, `%@ IN tags`,
// `@count`, `@sum`/`@avg`/`@min`/`@max`, and SUBQUERY counts.
extension PredicateFormatResolver {
    /// A comparison whose key path reaches the to-many `path` (of `destination` objects), with
    /// `rest` the components after it.
    func toMany(_ path: String, _ destination: EntityDescription, _ rest: [String], key: String,
                _ quantifier: PredicateFormatQuantifier?, _ op: PredicateFormatOperator, _ options: StringComparisonOptions,
                flipped: Bool, value: PredicateFormatValue, keyPosition: Int, at position: Int) throws -> PredicateNode {
        if let first = rest.first, first.hasPrefix("@") {
            if let quantifier {
                throw fail("\(quantifier.rawValue) cannot be combined with \(first) (in \(key))", at: keyPosition, attribute: key)
            }
            return try collectionOperator(path, destination, rest, key: key, op, options, flipped: flipped, value: value,
                                          keyPosition: keyPosition, at: position)
        }
        guard let quantifier else {
            if rest.isEmpty && ((op == .contains && !flipped) || (op == .in && flipped)) {
                // `tags CONTAINS %@`, `%@ IN tags`: the object is one of the collection's.
                let element = PredicateFormatResolver(format: format, arguments: arguments, entity: destination)
                let inner = try element.comparison(.key("", nil, position: keyPosition), .equal, options, flipped: false,
                                                   value: value, at: position)
                return .relationship(RelationshipPredicate(path: path, kind: .any(inner)))
            }
            let components = path.split(separator: ".").map(String.init)
            var current = entity
            for component in components.dropLast() {
                guard let relationship = current.relationship(named: component),
                      let next = current.destinationEntity(of: relationship) else { break }
                current = next
            }
            guard let last = components.last, let relationship = current.relationship(named: last) else {
                throw fail("The key path \(key) goes through a to-many relationship", at: keyPosition, attribute: key)
            }
            throw fail(PredicateKey.throughToMany(key, relationship: relationship, of: current, rootEntity: entity).message,
                       at: keyPosition, attribute: key)
        }
        switch quantifier {
        case .any:
            return try any(path, destination, rest, negatingLeaf: false, op, options, flipped: flipped, value: value,
                           keyPosition: keyPosition, at: position)
        case .all:
            return .not(try any(path, destination, rest, negatingLeaf: true, op, options, flipped: flipped, value: value,
                                keyPosition: keyPosition, at: position))
        case .none:
            return .not(try any(path, destination, rest, negatingLeaf: false, op, options, flipped: flipped, value: value,
                                keyPosition: keyPosition, at: position))
        }
    }

    /// Some object of the collection (flattened through further to-manys on the key path)
    /// satisfies the comparison, or its negation (`ALL x` is `NOT ANY NOT x`).
    private func any(_ path: String, _ destination: EntityDescription, _ rest: [String], negatingLeaf: Bool,
                     _ op: PredicateFormatOperator, _ options: StringComparisonOptions, flipped: Bool,
                     value: PredicateFormatValue, keyPosition: Int, at position: Int) throws -> PredicateNode {
        let element = PredicateFormatResolver(format: format, arguments: arguments, entity: destination)
        let restKey = rest.joined(separator: ".")
        let inner: PredicateNode
        if case .toMany(let nextPath, let nextDestination, let nextRest) = try element.analyze(restKey, at: keyPosition) {
            if let first = nextRest.first, first.hasPrefix("@") {
                throw fail("ANY, ALL and NONE cannot be combined with \(first) (in \(path).\(restKey))", at: keyPosition)
            }
            inner = try element.any(nextPath, nextDestination, nextRest, negatingLeaf: negatingLeaf, op, options, flipped: flipped,
                                    value: value, keyPosition: keyPosition, at: position)
        } else {
            let leaf = try element.comparison(.key(restKey, nil, position: keyPosition), op, options, flipped: flipped,
                                              value: value, at: position)
            inner = negatingLeaf ? .not(leaf) : leaf
        }
        return .relationship(RelationshipPredicate(path: path, kind: .any(inner)))
    }

    /// `tags.@count`, `tasks.@sum.rank`, `@avg`, `@min`, `@max`.
    private func collectionOperator(_ path: String, _ destination: EntityDescription, _ rest: [String], key: String,
                                    _ op: PredicateFormatOperator, _ options: StringComparisonOptions, flipped: Bool,
                                    value: PredicateFormatValue, keyPosition: Int, at position: Int) throws -> PredicateNode {
        let name = rest[0]
        if name == "@count" {
            guard rest.count == 1 else {
                throw fail("@count ends a key path (in \(key))", at: keyPosition, attribute: key)
            }
            return try count(path, inner: .constant(true), op, options, flipped: flipped, value: value, what: key, at: position)
        }
        guard let function = AggregateFunction(rawValue: String(name.dropFirst())) else {
            throw fail("Unknown collection operator \(name) in \(key) (supported: @count, @sum, @avg, @min, @max)",
                       at: keyPosition, attribute: key)
        }
        guard rest.count == 2 else {
            throw fail("\(name) needs one attribute of \(destination.name) after it, as \(path).\(name).<attribute> (in \(key))",
                       at: keyPosition, attribute: key)
        }
        guard let attribute = destination.attribute(named: rest[1]) else {
            throw fail(PredicateKey.unknownKey(rest[1], in: destination, keyPath: key, rootEntity: entity).message,
                       at: keyPosition, attribute: key)
        }
        let numeric = ["INTEGER", "REAL"].contains(attribute.type.columnType)
        if (function == .sum || function == .avg) && !numeric {
            throw fail("\(name) needs a number attribute; \(destination.name).\(attribute.name) is \(attribute.type.rawValue)",
                       at: keyPosition, attribute: key)
        }
        if attribute.type == .json {
            throw fail("\(name) of \(attribute.name) is not supported: it is stored as JSON", at: keyPosition, attribute: key)
        }
        return try compared(op, options, flipped: flipped, value: value, what: key, at: position) { swift in
            function == .min || function == .max ? try stored(swift, for: attribute, at: position) : try number(swift, what: key, at: position)
        } node: { op, stored in
            .relationship(RelationshipPredicate(path: path, kind: .aggregate(function, attribute: attribute.name, op, stored)))
        }
    }

    /// How many objects of the collection satisfy `inner`, compared with a number.
    func count(_ path: String, inner: PredicateNode, _ op: PredicateFormatOperator, _ options: StringComparisonOptions,
               flipped: Bool, value: PredicateFormatValue, what: String, at position: Int) throws -> PredicateNode {
        try compared(op, options, flipped: flipped, value: value, what: what, at: position) { swift in
            try number(swift, what: what, at: position)
        } node: { op, stored in
            .relationship(RelationshipPredicate(path: path, kind: .count(inner, op, stored)))
        }
    }

    /// A number computed from a collection compared with a value: `==`, `!=`, `<`, `<=`, `>`,
    /// `>=`, `BETWEEN` (two comparisons) or `IN` (any of the equalities).
    private func compared(_ op: PredicateFormatOperator, _ options: StringComparisonOptions, flipped: Bool,
                          value: PredicateFormatValue, what: String, at position: Int,
                          stored: (Any?) throws -> SQLValue,
                          node: (ComparisonOperator, SQLValue) -> PredicateNode) throws -> PredicateNode {
        guard options.isEmpty else { throw fail("[c] and [d] apply to strings, not to \(what)", at: position) }
        if case .variable(let name) = value {
            throw fail("$\(name) cannot be compared with \(what): pass the value as an argument (%@)", at: position)
        }
        let swift = try swiftValue(value, at: position)
        switch op {
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            if let swift, !(swift is String), !(swift is Data), elements(of: swift) != nil {
                throw fail("A list cannot be compared with \(what) (use IN)", at: position)
            }
            let comparison = try comparisonOperator(op)
            return node(flipped ? comparison.flipped : comparison, try stored(swift))
        case .between where !flipped:
            guard let swift, !(swift is String), let bounds = elements(of: swift), bounds.count == 2,
                  let low = bounds.first, let high = bounds.last else {
                throw fail("BETWEEN needs two bounds: an array [low, high]", at: position)
            }
            return .and([node(.greaterOrEqual, try stored(low)), node(.lessOrEqual, try stored(high))])
        case .in where !flipped:
            guard let swift, !(swift is String), let members = elements(of: swift) else {
                throw fail("IN needs a list or a collection", at: position)
            }
            return .or(try members.map { node(.equal, try stored($0)) })
        default:
            throw fail("\(what) is compared with ==, !=, <, <=, >, >=, BETWEEN or IN, not \(op.rawValue)", at: position)
        }
    }

    /// A count or sum compared with: an integer or a real (nil never equals one).
    private func number(_ swift: Any?, what: String, at position: Int) throws -> SQLValue {
        guard let swift else { return .null }
        if swift is Bool { throw fail("\(what) is a number, not a Bool", at: position) }
        if let double = swift as? Double { return .real(double) }
        if let float = swift as? Float { return .real(Double(float)) }
        if let stored = ModelValueCoding.storedValue(from: swift, type: .integer64) { return stored }
        throw fail("\(what) is a number, not \(ModelValueCoding.typeName(of: swift))", at: position)
    }
}
