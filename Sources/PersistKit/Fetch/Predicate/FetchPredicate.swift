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
    /// A tree, or a chain of terms built by `&&` or `||` (shared, so chains build in linear time).
    enum Storage: Sendable {
        case node(PredicateNode)
        case chain(PredicateChain.View)
    }

    let storage: Storage
    /// How deeply the predicate nests AND/OR groups (kept within ``PredicateNode/maximumNesting``
    /// by the operators).
    let nesting: PredicateNesting

    /// The predicate's tree (a chain's terms are gathered into one AND or OR node).
    var node: PredicateNode {
        switch storage {
        case .node(let node): return node
        case .chain(let view): return view.isConjunction ? .and(view.terms) : .or(view.terms)
        }
    }

    init(node: PredicateNode) {
        self.init(node: node, nesting: PredicateNesting.of(node))
    }

    init(node: PredicateNode, nesting: PredicateNesting) {
        storage = .node(node)
        self.nesting = nesting
    }

    init(chain: PredicateChain.View, nesting: PredicateNesting) {
        storage = .chain(chain)
        self.nesting = nesting
    }

    /// The predicate every object satisfies.
    ///
    /// ```swift
    /// let filter: FetchPredicate<TaskItem> = showDone ? .true : \.isComplete == false
    /// ```
    public static var `true`: FetchPredicate { FetchPredicate(node: .constant(true)) }
    /// The predicate no object satisfies.
    public static var `false`: FetchPredicate { FetchPredicate(node: .constant(false)) }

    /// Parses a format string in Core Data's syntax against `Root`'s entity.
    ///
    /// Supported: `==`, `!=`, `<`, `<=`, `>`, `>=`, `IN`, `BETWEEN` (with `{low, high}` or a
    /// two-element array argument), `CONTAINS`, `BEGINSWITH`, `ENDSWITH`, `LIKE`, `MATCHES` (an
    /// ICU regular expression matching the whole value) with `[c]`, `[d]`, `[cd]`; `AND`, `OR`,
    /// `NOT`, parentheses; `nil`, `YES`/`NO`, numbers, quoted strings (with `\n`, `\t`, `\xhh`,
    /// `\uhhhh` and octal `\0nn` escapes), `{...}` lists; `%@`, `%K`, `%d`, `%f` arguments;
    /// `$NAME` variables, given values later with ``withSubstitutionVariables(_:)``.
    ///
    /// ```swift
    /// let template = try FetchPredicate<TaskItem>(format: "name MATCHES[c] $PATTERN AND priority BETWEEN %@", [1, 2])
    /// let milk = try template.withSubstitutionVariables(["PATTERN": "buy .*milk"])
    /// ```
    ///
    /// AND/OR groups may nest at most 1,000 levels deep (a group inside a group of the other
    /// kind is a level), and parentheses and braces 1,000 levels; a group may hold any number
    /// of terms.
    ///
    /// - Throws: ``PersistError`` with code `.invalidPredicate` naming the position of a syntax
    ///   error, an unknown key, an invalid regular expression, a nesting too deep, or an argument
    ///   that does not fit its attribute.
    public init(format: String, _ arguments: Any...) throws {
        try self.init(format: format, argumentArray: arguments)
    }

    /// Parses a format string with its arguments in an array.
    ///
    /// ```swift
    /// let words = ["milk", "eggs"]
    /// let predicate = try FetchPredicate<TaskItem>(format: "name CONTAINS[c] %@ OR name CONTAINS[c] %@",
    ///                                              argumentArray: words)
    /// ```
    public init(format: String, argumentArray arguments: [Any]) throws {
        guard let entity = FetchPredicate.defaultEntity() else {
            throw PersistError(.invalidPredicate,
                "\(Root.self) has no entity of its own: use FetchPredicate(format:entity:) for objects of a model document")
        }
        try self.init(format: format, argumentArray: arguments, entity: entity)
    }

    /// Parses a format string against an explicit entity (for models loaded from a document,
    /// whose objects are plain `ManagedObject`s).
    ///
    /// ```swift
    /// guard let entity = model.entity(named: "Task") else { return }   // a model loaded from a document
    /// let predicate = try FetchPredicate<ManagedObject>(format: "due < %@", argumentArray: [Date()], entity: entity)
    /// ```
    public init(format: String, argumentArray arguments: [Any] = [], entity: EntityDescription) throws {
        let expression = try PredicateFormatParser.parse(format, arguments: arguments)
        self.init(node: try PredicateFormatResolver(format: format, arguments: arguments, entity: entity).resolve(expression))
    }

    /// The predicate with values for its `$VARIABLE`s, as NSPredicate's
    /// `withSubstitutionVariables(_:)`; variables missing from `variables` stay, and fetching
    /// with them throws.
    ///
    /// ```swift
    /// let template = try FetchPredicate<TaskItem>(format: "name BEGINSWITH[c] $PREFIX")
    /// let buy = try template.withSubstitutionVariables(["PREFIX": "buy"])
    /// ```
    ///
    /// - Throws: ``PersistError`` `.invalidPredicate` when a value does not fit its attribute, as
    ///   a `%@` argument would not.
    public func withSubstitutionVariables(_ variables: [String: Any]) throws -> FetchPredicate {
        let substituted = try node.mapComparisons { node -> PredicateNode? in
            guard case .variable(let variable) = node, let value = variables[variable.name] else { return nil }
            return try variable.substituting(value)
        }
        return FetchPredicate(node: substituted)
    }

    static func defaultEntity() -> EntityDescription? {
        guard Root.self != ManagedObject.self, case .success(let entity) = EntityReflection.entity(for: Root.self) else {
            return nil
        }
        return entity
    }

    /// The attribute of `Root`'s own that a key path reads (not through relationships), or why
    /// there is none.
    static func attributeName<Value>(_ keyPath: KeyPath<Root, Value>) -> Result<AttributeDescription, PersistError> {
        attributeKey(keyPath).flatMap { key, attribute in
            guard key == attribute.name else {
                return .failure(PersistError(.invalidPredicate,
                    "\(key) reads through a relationship: name an attribute of \(Root.self) itself", attribute: key))
            }
            return .success(attribute)
        }
    }

    static func comparison<Value: AttributeValue>(_ keyPath: KeyPath<Root, Value>, _ op: ComparisonOperator,
                                                  _ value: Value) -> FetchPredicate {
        switch attributeKey(keyPath) {
        case .failure(let error):
            // `\.tags.count > 2`: how many objects a to-many holds.
            if let count = value as? Int, case .success(.count(let path)) = keyTarget(keyPath, valueType: Value.self) {
                return FetchPredicate(node: .relationship(RelationshipPredicate(path: path, kind: .count(.constant(true), op, .integer(Int64(count))))))
            }
            return FetchPredicate(node: .invalid(error))
        case .success(let (key, attribute)):
            do {
                return FetchPredicate(node: .compare(attribute: key, op, try value.makeStoredValue()))
            } catch {
                return FetchPredicate(node: .invalid(PersistError(.invalidPredicate,
                    "The value compared with \(attribute.name) cannot be encoded: \(error)", attribute: attribute.name)))
            }
        }
    }

    static func text(_ keyPath: KeyPath<Root, some AttributeValue>, _ op: TextMatchOperator, _ pattern: String,
                     _ options: StringComparisonOptions) -> FetchPredicate {
        switch attributeKey(keyPath) {
        case .failure(let error): return FetchPredicate(node: .invalid(error))
        case .success(let (key, attribute)):
            guard attribute.type == .string else {
                return FetchPredicate(node: .invalid(PersistError(.invalidPredicate,
                    "\(key) is not a string attribute", attribute: key)))
            }
            return FetchPredicate(node: .text(attribute: key, op, pattern, options))
        }
    }

    // MARK: String operators

    /// Objects whose string attribute contains `substring`.
    ///
    /// ```swift
    /// FetchRequest<TaskItem>(predicate: .contains(\.name, "milk", options: .caseInsensitive))
    /// ```
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
    ///
    /// ```swift
    /// FetchPredicate<TaskItem>.beginsWith(\.name, "Buy")
    /// ```
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
    ///
    /// ```swift
    /// FetchPredicate<TaskItem>.endsWith(\.name, ".pdf", options: .caseInsensitive)
    /// ```
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
    ///
    /// ```swift
    /// FetchPredicate<TaskItem>.like(\.name, "report-20??-*")
    /// ```
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
    ///
    /// ```swift
    /// FetchPredicate<TaskItem>.equals(\.name, "cafe", options: [.caseInsensitive, .diacriticInsensitive])   // "Café" too
    /// ```
    public static func equals(_ keyPath: KeyPath<Root, String>, _ string: String,
                              options: StringComparisonOptions) -> FetchPredicate {
        text(keyPath, .equal, string, options)
    }
    /// Objects whose optional string attribute equals `string` under `options` (nil never does).
    public static func equals(_ keyPath: KeyPath<Root, String?>, _ string: String,
                              options: StringComparisonOptions) -> FetchPredicate {
        text(keyPath, .equal, string, options)
    }

    /// Objects whose string attribute matches the ICU regular expression `pattern` as a whole
    /// (`MATCHES`): `[c]` ignores case (full case folding, as `CONTAINS[c]`), `[d]` diacritics.
    ///
    /// Each match is bounded (1,000,000 steps of ICU's engine plus 100 per UTF-16 unit of the
    /// value): a fetch whose pattern backtracks past that on some value throws `.invalidPredicate`
    /// naming the pattern instead of hanging.
    ///
    /// ```swift
    /// let dated = try FetchPredicate<TaskItem>.matches(\.name, "[0-9]{4}-[0-9]{2}-[0-9]{2} .*")
    /// ```
    ///
    /// - Throws: ``PersistError`` `.invalidPredicate` naming the pattern when it is not a valid
    ///   regular expression.
    public static func matches(_ keyPath: KeyPath<Root, String>, _ pattern: String,
                               options: StringComparisonOptions = []) throws -> FetchPredicate {
        try regex(keyPath, pattern, options)
    }
    /// Objects whose optional string attribute matches `pattern` as a whole (nil never does).
    public static func matches(_ keyPath: KeyPath<Root, String?>, _ pattern: String,
                               options: StringComparisonOptions = []) throws -> FetchPredicate {
        try regex(keyPath, pattern, options)
    }

    static func regex(_ keyPath: KeyPath<Root, some AttributeValue>, _ pattern: String,
                      _ options: StringComparisonOptions) throws -> FetchPredicate {
        let regex = try PredicateRegex(pattern: pattern, options: options)
        switch attributeKey(keyPath) {
        case .failure(let error): return FetchPredicate(node: .invalid(error))
        case .success(let (key, attribute)):
            guard attribute.type == .string else {
                return FetchPredicate(node: .invalid(PersistError(.invalidPredicate,
                    "\(key) is not a string attribute", attribute: key)))
            }
            return FetchPredicate(node: .matches(attribute: key, regex))
        }
    }

    /// Objects whose attribute lies in `range`, bounds included (`BETWEEN`; nil never does).
    ///
    /// ```swift
    /// let soon = FetchPredicate<TaskItem>.between(\.due, now...now.addingTimeInterval(86_400))
    /// ```
    public static func between<Value: AttributeValue & Comparable>(_ keyPath: KeyPath<Root, Value>,
                                                                   _ range: ClosedRange<Value>) -> FetchPredicate {
        comparison(keyPath, .greaterOrEqual, range.lowerBound) && comparison(keyPath, .lessOrEqual, range.upperBound)
    }
    /// Objects whose optional attribute lies in `range`, bounds included (nil never does).
    public static func between<Value: AttributeValue & Comparable>(_ keyPath: KeyPath<Root, Value?>,
                                                                   _ range: ClosedRange<Value>) -> FetchPredicate {
        comparison(keyPath, .greaterOrEqual, range.lowerBound) && comparison(keyPath, .lessOrEqual, range.upperBound)
    }

    /// Objects whose attribute is one of `values` (`priority IN {1, 2}`); nil in `values`
    /// matches nil.
    ///
    /// ```swift
    /// FetchPredicate<TaskItem>.in(\.priority, [.high, .normal])   // priority IN {2, 1}
    /// ```
    public static func `in`<Value: AttributeValue>(_ keyPath: KeyPath<Root, Value>, _ values: some Sequence<Value>) -> FetchPredicate {
        switch attributeKey(keyPath) {
        case .failure(let error): return FetchPredicate(node: .invalid(error))
        case .success(let (key, attribute)):
            do {
                return FetchPredicate(node: .inList(attribute: key, try values.map { try $0.makeStoredValue() }))
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
    /// ```swift
    /// let overdue: FetchPredicate<TaskItem> = \.isComplete == false && \.due < Date()
    /// if try overdue.evaluate(with: task) { notify(task) }
    /// ```
    ///
    /// - Throws: ``PersistError`` when the predicate is invalid or names an attribute the
    ///   object's entity lacks.
    public func evaluate(with object: Root) throws -> Bool {
        try PredicateEvaluator(node: node, entity: object.entity).evaluate(object)
    }
}
