import Foundation

// Key paths through relationships in format strings: `project.name` (to-ones, nil when one is
// nil), `project == %@` (objects), `ANY/ALL/NONE tags.name`, `tags.@count`, `tasks.@sum.rank`,
// `SUBQUERY(tags, $t, $t.name BEGINSWITH 'x').@count`, `tags CONTAINS %@`, `%@ IN tags`.
extension PredicateFormatResolver {
    /// What a comparison is about.
    enum Subject {
        /// A key path from the entity ("" is the object itself: a SUBQUERY's `$t`).
        case key(String, PredicateFormatQuantifier?, position: Int)
        /// `SUBQUERY(collection, $variable, predicate).@count`.
        case subquery(collection: String, collectionPosition: Int, variable: String, predicate: PredicateFormatExpression)
    }

    /// A key path resolved against the entity.
    enum KeyAnalysis {
        /// An attribute, perhaps through to-ones (`project.name`).
        case attribute(key: String, AttributeDescription)
        /// A to-one itself, compared with objects (`project`, `project.owner`).
        case toOne(key: String, RelationshipDescription)
        /// The object itself.
        case object
        /// The first to-many on the path (`tags`, `project.tasks`), and the components after it.
        case toMany(path: String, destination: EntityDescription, rest: [String])
    }

    /// The subject an operand names, or nil for a value.
    func subject(_ operand: PredicateFormatOperand) throws -> Subject? {
        switch operand {
        case .value(.variable(let name), let position) where name == variable:
            return .key("", nil, position: position)
        case .value:
            return nil
        case .key(let key, let position):
            if let variable {
                throw fail("Inside SUBQUERY(..., $\(variable), ...) key paths start with the variable: write $\(variable).\(key)",
                           at: position, attribute: key)
            }
            return .key(key, nil, position: position)
        case .variableKey(let name, let path, let position):
            return .key(try variablePath(name, path, at: position), nil, position: position)
        case .quantified(let quantifier, let inner, let position):
            guard case .key(let path, nil, _)? = try subject(inner) else {
                throw fail("\(quantifier.rawValue) needs a key path", at: position)
            }
            return .key(path, quantifier, position: position)
        case .subqueryCount(let collection, let name, let predicate, let position):
            guard case .key(let path, nil, let at)? = try subject(collection), !path.isEmpty else {
                throw fail("SUBQUERY needs the key path of a to-many relationship first", at: position)
            }
            return .subquery(collection: path, collectionPosition: at, variable: name, predicate: predicate)
        case .arithmetic(_, _, _, let position), .negated(_, let position):
            throw fail("Arithmetic is compared with ==, !=, <, <=, > or >=", at: position)
        }
    }

    private func variablePath(_ name: String, _ path: String, at position: Int) throws -> String {
        guard let variable else {
            throw fail("$\(name).\(path) reads a SUBQUERY variable, but it is not inside a SUBQUERY", at: position)
        }
        guard name == variable else {
            throw fail("$\(name) is not the variable of the innermost SUBQUERY: only $\(variable) can be used there", at: position)
        }
        return path
    }

    /// The comparison of a subject with a value (`flipped` when the value is written first).
    func comparison(_ subject: Subject, _ op: PredicateFormatOperator, _ options: StringComparisonOptions,
                    flipped: Bool, value: PredicateFormatValue, at position: Int) throws -> PredicateNode {
        switch subject {
        case .subquery(let collection, let collectionPosition, let name, let predicate):
            guard case .toMany(let path, let destination, let rest) = try analyze(collection, at: collectionPosition), rest.isEmpty else {
                throw fail("SUBQUERY's first argument must be a to-many relationship; \(collection) is not", at: collectionPosition,
                           attribute: collection)
            }
            let inner = PredicateFormatResolver(format: format, arguments: arguments, entity: destination, variable: name)
            return try count(path, inner: try inner.resolve(predicate), op, options, flipped: flipped, value: value,
                             what: "SUBQUERY(\(collection), $\(name), ...).@count", at: position)
        case .key(let key, let quantifier, let keyPosition):
            let analysis = try analyze(key, at: keyPosition)
            switch (analysis, quantifier) {
            case (.attribute(let path, let attribute), nil):
                return try attributeComparison(attribute, key: path, op, options, flipped: flipped, value: value, at: position)
            case (.toOne(let path, let relationship), nil):
                return try objectComparison(path, destination: relationship.destinationEntityName, op, options, flipped: flipped,
                                            value: value, at: position)
            case (.object, nil):
                return try objectComparison(PredicateKey.selfKey, destination: entity.name, op, options, flipped: flipped,
                                            value: value, at: position)
            case (.toMany(let path, let destination, let rest), _):
                return try toMany(path, destination, rest, key: key, quantifier, op, options, flipped: flipped, value: value,
                                  keyPosition: keyPosition, at: position)
            case (_, .some(let quantifier)):
                throw fail("\(quantifier.rawValue) needs a key path through a to-many relationship; \(key) goes through none",
                           at: keyPosition, attribute: key)
            }
        }
    }

    /// Resolves a key path's components against the entity, up to its first to-many.
    func analyze(_ key: String, at position: Int) throws -> KeyAnalysis {
        if key.isEmpty { return .object }
        let components = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard components.count <= PredicateKey.maximumHops + 2 else {
            throw fail("The key path \(key) follows more than \(PredicateKey.maximumHops) relationships", at: position, attribute: key)
        }
        var current = entity
        var walked: [String] = []
        for (offset, component) in components.enumerated() {
            let isLast = offset == components.count - 1
            if component.hasPrefix("@") {
                throw fail("\(component) must follow a to-many relationship (in key path \(key))", at: position, attribute: key)
            }
            if let attribute = current.attribute(named: component) {
                guard isLast else {
                    throw fail("\(current.name).\(component) is an attribute: the key path \(key) cannot go on past it",
                               at: position, attribute: key)
                }
                return .attribute(key: (walked + [component]).joined(separator: "."), attribute)
            }
            guard let relationship = current.relationship(named: component) else {
                throw fail(PredicateKey.unknownKey(component, in: current, keyPath: key, rootEntity: entity).message,
                           at: position, attribute: key)
            }
            let destination: EntityDescription
            do {
                destination = try PredicateKey.destination(of: relationship, from: current, rootEntity: entity)
            } catch let error as PersistError {
                throw fail(error.message, at: position, attribute: key)
            }
            walked.append(component)
            if relationship.kind.isToMany {
                return .toMany(path: walked.joined(separator: "."), destination: destination, rest: Array(components[(offset + 1)...]))
            }
            if isLast { return .toOne(key: key, relationship) }
            current = destination
        }
        return .object
    }

    // MARK: - Objects

    /// `project == %@`, `project != nil`, `project IN %@`, `$t == %@`: the related object (or the
    /// object itself) compared with objects or their ObjectIDs.
    private func objectComparison(_ key: String, destination: String, _ op: PredicateFormatOperator,
                                  _ options: StringComparisonOptions, flipped: Bool, value: PredicateFormatValue,
                                  at position: Int) throws -> PredicateNode {
        if case .variable(let name) = value {
            try checkObjectOperator(key, destination: destination, op, options, flipped: flipped, at: position)
            return .variable(PredicateVariable(name: name, attribute: key, op: op, options: options, flipped: flipped,
                                               position: position, format: format, entity: entity))
        }
        return try objectNode(key, destination: destination, op, options, flipped: flipped, value: try swiftValue(value, at: position),
                              at: position)
    }

    private func checkObjectOperator(_ key: String, destination: String, _ op: PredicateFormatOperator,
                                     _ options: StringComparisonOptions, flipped: Bool, at position: Int) throws {
        let what = key == PredicateKey.selfKey ? "The object itself" : "\(key), a relationship to \(destination),"
        guard options.isEmpty else {
            throw fail("[c] and [d] apply to strings: \(what) is compared with objects", at: position, attribute: key)
        }
        guard op == .equal || op == .notEqual || (op == .in && !flipped) else {
            throw fail("\(what) can only be compared with ==, != or IN and \(destination) objects (or their ObjectIDs), not with \(op.rawValue)",
                       at: position, attribute: key)
        }
    }

    /// The node comparing a related object (or the object itself) with objects.
    func objectNode(_ key: String, destination: String, _ op: PredicateFormatOperator, _ options: StringComparisonOptions,
                    flipped: Bool, value swift: Any?, at position: Int) throws -> PredicateNode {
        try checkObjectOperator(key, destination: destination, op, options, flipped: flipped, at: position)
        if op == .in {
            guard let swift, !(swift is String), let members = elements(of: swift) else {
                throw fail("IN needs a collection of \(destination) objects, not \(ModelValueCoding.typeName(of: swift))",
                           at: position, attribute: key)
            }
            return .inList(attribute: key, try members.map { try reference($0, to: destination, key: key, at: position) })
        }
        let stored = try reference(swift, to: destination, key: key, at: position)
        return .compare(attribute: key, op == .equal ? .equal : .notEqual, stored)
    }

    /// How predicates refer to an object given as a value: nil, a managed object or an ObjectID
    /// of the destination entity (an unsaved object by its temporary key, negated).
    private func reference(_ given: Any?, to destination: String, key: String, at position: Int) throws -> SQLValue {
        // nil, NSNull and optionals holding nil all stand for no object.
        guard let swift = given.flatMap(FoundationPredicateConstant.canonical), !(swift is NSNull) else { return .null }
        if let object = swift as? ManagedObject {
            guard object.entity.name == destination else {
                throw fail("\(key == PredicateKey.selfKey ? "The object" : key) is a \(destination), not a \(object.entity.name)",
                           at: position, attribute: key)
            }
            return .integer(object.storageReference)
        }
        if let id = swift as? ObjectID {
            guard id.entityName == destination else {
                throw fail("\(key == PredicateKey.selfKey ? "The object" : key) is a \(destination), not a \(id.entityName) (\(id))",
                           at: position, attribute: key)
            }
            return .integer(id.isTemporary ? -id.key : id.key)
        }
        throw fail("\(key == PredicateKey.selfKey ? "The object" : key) is compared with \(destination) objects or their ObjectIDs, "
                   + "not \(ModelValueCoding.typeName(of: swift))", at: position, attribute: key)
    }

    /// The comparison of a key path with a substituted `$VARIABLE`'s value.
    func substitution(_ key: String, _ op: PredicateFormatOperator, _ options: StringComparisonOptions, flipped: Bool,
                      value swift: Any?, at position: Int) throws -> PredicateNode {
        switch try analyze(key == PredicateKey.selfKey ? "" : key, at: position) {
        case .attribute(let path, let attribute):
            return try node(attribute, key: path, op, options, flipped: flipped, value: swift, at: position)
        case .toOne(let path, let relationship):
            return try objectNode(path, destination: relationship.destinationEntityName, op, options, flipped: flipped,
                                  value: swift, at: position)
        case .object:
            return try objectNode(PredicateKey.selfKey, destination: entity.name, op, options, flipped: flipped, value: swift, at: position)
        case .toMany(let path, _, _):
            throw fail("\(path) is a to-many relationship", at: position, attribute: key)
        }
    }
}
