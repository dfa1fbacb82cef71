import PersistKitText
import Foundation

/// A condition on objects of `Root`, evaluated by SQLite for saved objects and in memory for
/// pending changes, with the same answer both ways.
///
/// Build one with operators on plain key paths, or from a Core Data format string:
///
/// ```swift
/// let open: FetchPredicate<TaskItem> = \.isComplete == false && \.due < deadline
/// let search = FetchPredicate<TaskItem>.contains(\.name, "milk", options: [.caseInsensitive, .diacriticInsensitive])
/// let same = try FetchPredicate<TaskItem>(format: "isComplete == NO AND name CONTAINS[cd] %@", "milk")
/// ```
public struct FetchPredicate<Root: ManagedObject>: Sendable {
    let node: PredicateNode

    init(node: PredicateNode) {
        self.node = node
    }

    /// The predicate every object satisfies.
    public static var `true`: FetchPredicate { FetchPredicate(node: .constant(true)) }
    /// The predicate no object satisfies.
    public static var `false`: FetchPredicate { FetchPredicate(node: .constant(false)) }

    /// Parses a format string in Core Data's syntax against `Root`'s entity.
    ///
    /// Supported: `==`, `!=`, `<`, `<=`, `>`, `>=`, `IN`, `BETWEEN`, `CONTAINS`, `BEGINSWITH`,
    /// `ENDSWITH`, `LIKE` with `[c]`, `[d]`, `[cd]`; `AND`, `OR`, `NOT`, parentheses; `nil`,
    /// `YES`/`NO`, numbers, quoted strings, `{...}` lists; `%@`, `%K`, `%d`, `%f` arguments.
    ///
    /// - Throws: ``PersistError`` with code `.invalidPredicate` naming the position of a syntax
    ///   error, an unknown key, or an argument that does not fit its attribute.
    public init(format: String, _ arguments: Any...) throws {
        try self.init(format: format, argumentArray: arguments)
    }

    /// Parses a format string with its arguments in an array.
    public init(format: String, argumentArray arguments: [Any]) throws {
        guard let entity = FetchPredicate.defaultEntity() else {
            throw PersistError(.invalidPredicate,
                "\(Root.self) has no entity of its own: use FetchPredicate(format:entity:) for objects of a model document")
        }
        try self.init(format: format, argumentArray: arguments, entity: entity)
    }

    /// Parses a format string against an explicit entity (for models loaded from a document,
    /// whose objects are plain `ManagedObject`s).
    public init(format: String, argumentArray arguments: [Any] = [], entity: EntityDescription) throws {
        let expression = try PredicateFormatParser.parse(format, arguments: arguments)
        node = try PredicateFormatResolver(format: format, arguments: arguments, entity: entity).resolve(expression)
    }

    static func defaultEntity() -> EntityDescription? {
        guard Root.self != ManagedObject.self, case .success(let entity) = EntityReflection.entity(for: Root.self) else {
            return nil
        }
        return entity
    }

    /// The attribute a key path reads, or an invalid node explaining why there is none.
    static func attributeName<Value>(_ keyPath: KeyPath<Root, Value>) -> Result<AttributeDescription, PersistError> {
        guard let entity = defaultEntity() else {
            return .failure(PersistError(.invalidPredicate, "\(Root.self) is not an entity class: key paths need one"))
        }
        guard let index = entity.attributeIndex(for: keyPath) else {
            return .failure(PersistError(.invalidPredicate,
                "The key path \(keyPath) of \(Root.self) does not name an @Attribute", entity: entity.name))
        }
        return .success(entity.attributes[index])
    }

    static func comparison<Value: AttributeValue>(_ keyPath: KeyPath<Root, Value>, _ op: ComparisonOperator,
                                                  _ value: Value) -> FetchPredicate {
        switch attributeName(keyPath) {
        case .failure(let error): return FetchPredicate(node: .invalid(error))
        case .success(let attribute):
            do {
                return FetchPredicate(node: .compare(attribute: attribute.name, op, try value.makeStoredValue()))
            } catch {
                return FetchPredicate(node: .invalid(PersistError(.invalidPredicate,
                    "The value compared with \(attribute.name) cannot be encoded: \(error)", attribute: attribute.name)))
            }
        }
    }

    static func text(_ keyPath: KeyPath<Root, some AttributeValue>, _ op: TextMatchOperator, _ pattern: String,
                     _ options: StringComparisonOptions) -> FetchPredicate {
        switch attributeName(keyPath) {
        case .failure(let error): return FetchPredicate(node: .invalid(error))
        case .success(let attribute):
            guard attribute.type == .string else {
                return FetchPredicate(node: .invalid(PersistError(.invalidPredicate,
                    "\(attribute.name) is not a string attribute", attribute: attribute.name)))
            }
            return FetchPredicate(node: .text(attribute: attribute.name, op, pattern, options))
        }
    }

    // MARK: String operators

    /// Objects whose string attribute contains `substring`.
    public static func contains(_ keyPath: KeyPath<Root, String>, _ substring: String,
                                options: StringComparisonOptions = []) -> FetchPredicate {
        text(keyPath, .contains, substring, options)
    }
    /// Objects whose optional string attribute contains `substring` (nil never does).
    public static func contains(_ keyPath: KeyPath<Root, String?>, _ substring: String,
                                options: StringComparisonOptions = []) -> FetchPredicate {
        text(keyPath, .contains, substring, options)
    }
    /// Objects whose string attribute begins with `prefix`.
    public static func beginsWith(_ keyPath: KeyPath<Root, String>, _ prefix: String,
                                  options: StringComparisonOptions = []) -> FetchPredicate {
        text(keyPath, .beginsWith, prefix, options)
    }
    /// Objects whose optional string attribute begins with `prefix` (nil never does).
    public static func beginsWith(_ keyPath: KeyPath<Root, String?>, _ prefix: String,
                                  options: StringComparisonOptions = []) -> FetchPredicate {
        text(keyPath, .beginsWith, prefix, options)
    }
    /// Objects whose string attribute ends with `suffix`.
    public static func endsWith(_ keyPath: KeyPath<Root, String>, _ suffix: String,
                                options: StringComparisonOptions = []) -> FetchPredicate {
        text(keyPath, .endsWith, suffix, options)
    }
    /// Objects whose optional string attribute ends with `suffix` (nil never does).
    public static func endsWith(_ keyPath: KeyPath<Root, String?>, _ suffix: String,
                                options: StringComparisonOptions = []) -> FetchPredicate {
        text(keyPath, .endsWith, suffix, options)
    }
    /// Objects whose string attribute matches a LIKE pattern: `*` is any run of characters,
    /// `?` one character, `\` escapes.
    public static func like(_ keyPath: KeyPath<Root, String>, _ pattern: String,
                            options: StringComparisonOptions = []) -> FetchPredicate {
        text(keyPath, .like, pattern, options)
    }
    /// Objects whose optional string attribute matches a LIKE pattern (nil never does).
    public static func like(_ keyPath: KeyPath<Root, String?>, _ pattern: String,
                            options: StringComparisonOptions = []) -> FetchPredicate {
        text(keyPath, .like, pattern, options)
    }
    /// Objects whose string attribute equals `string` under `options` (`==[cd]`).
    public static func equals(_ keyPath: KeyPath<Root, String>, _ string: String,
                              options: StringComparisonOptions) -> FetchPredicate {
        text(keyPath, .equal, string, options)
    }
    /// Objects whose optional string attribute equals `string` under `options` (nil never does).
    public static func equals(_ keyPath: KeyPath<Root, String?>, _ string: String,
                              options: StringComparisonOptions) -> FetchPredicate {
        text(keyPath, .equal, string, options)
    }

    /// Objects whose attribute is one of `values` (`priority IN {1, 2}`); nil in `values`
    /// matches nil.
    public static func `in`<Value: AttributeValue>(_ keyPath: KeyPath<Root, Value>, _ values: some Sequence<Value>) -> FetchPredicate {
        switch attributeName(keyPath) {
        case .failure(let error): return FetchPredicate(node: .invalid(error))
        case .success(let attribute):
            do {
                return FetchPredicate(node: .inList(attribute: attribute.name, try values.map { try $0.makeStoredValue() }))
            } catch {
                return FetchPredicate(node: .invalid(PersistError(.invalidPredicate,
                    "A value in the list for \(attribute.name) cannot be encoded: \(error)", attribute: attribute.name)))
            }
        }
    }

    /// Objects whose non-optional attribute is one of `values`.
    public static func `in`<Value: AttributeValue>(_ keyPath: KeyPath<Root, Value?>, _ values: some Sequence<Value>) -> FetchPredicate {
        self.in(keyPath, values.map { Optional($0) })
    }

    // MARK: Evaluation

    /// Whether `object` satisfies the predicate, evaluated in memory on its current values.
    ///
    /// - Throws: ``PersistError`` when the predicate is invalid or names an attribute the
    ///   object's entity lacks.
    public func evaluate(with object: Root) throws -> Bool {
        try PredicateEvaluator(node: node, entity: object.entity).evaluate(object.storage)
    }
}
