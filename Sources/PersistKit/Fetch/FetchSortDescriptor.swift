import PersistKitText
import Foundation

/// How a sort orders objects by one attribute.
///
/// ```swift
/// FetchSortDescriptor(\TaskItem.isComplete)
/// FetchSortDescriptor(\TaskItem.due, nils: .last)
/// FetchSortDescriptor(\TaskItem.name, order: .reverse, comparison: .localizedStandard)
/// ```
///
/// SQL and in-memory sorting agree exactly; objects that tie on every descriptor are ordered
/// by primary key (saved objects), then by insertion (unsaved ones).
public struct FetchSortDescriptor<Root: ManagedObject>: Sendable {
    /// Where nil values go.
    ///
    /// ```swift
    /// FetchSortDescriptor(\TaskItem.due, nils: .last)   // tasks without a due date at the end
    /// ```
    public enum NilPlacement: Sendable {
        /// Before every non-nil value, whatever the order.
        case first
        /// After every non-nil value, whatever the order.
        case last
    }

    /// How strings compare.
    ///
    /// ```swift
    /// FetchSortDescriptor(\TaskItem.name, comparison: .localizedStandard)   // "file2" before "file10"
    /// ```
    public enum StringComparison: Sendable {
        /// By UTF-8 bytes (SQLite's BINARY): "B" < "a" < "é".
        case binary
        /// Without regard to case (full Unicode case folding), ties broken by bytes.
        case caseInsensitive
        /// Like the Finder: without regard to case or diacritics, digit runs by value
        /// ("file2" < "file10"), ties broken case- and diacritic-sensitively, then by bytes.
        case localizedStandard

        var collation: TextCollation {
            switch self {
            case .binary: return .binary
            case .caseInsensitive: return .caseInsensitive
            case .localizedStandard: return .localizedStandard
            }
        }
    }

    /// The attribute name, once resolved.
    public let key: String
    /// Ascending (`.forward`) or descending (`.reverse`).
    public let order: SortOrder
    /// Where nil values go.
    public let nils: NilPlacement
    /// How strings compare.
    public let comparison: StringComparison
    let error: PersistError?

    /// Sorts by the attribute a plain key path names, perhaps through to-one relationships
    /// (`\TaskItem.project?.name`: nil when the project is).
    ///
    /// ```swift
    /// FetchSortDescriptor(\TaskItem.due, order: .reverse, nils: .last)
    /// ```
    public init<Value: AttributeValue>(_ keyPath: KeyPath<Root, Value>, order: SortOrder = .forward,
                                       nils: NilPlacement = .first, comparison: StringComparison = .binary) {
        self.order = order
        self.nils = nils
        self.comparison = comparison
        switch FetchPredicate<Root>.attributeKey(keyPath) {
        case .success(let (name, _)):
            key = name
            error = nil
        case .failure(let failure):
            key = "\(keyPath)"
            error = PersistError(.invalidRequest, "Cannot sort by \(keyPath): " + failure.message, entity: failure.entity)
        }
    }

    /// Sorts by an attribute named by a string (for models loaded from a document), or by a key
    /// path through to-one relationships (`"project.name"`, nil when the project is).
    ///
    /// ```swift
    /// FetchSortDescriptor<ManagedObject>(key: "name", comparison: .caseInsensitive)   // document models
    /// ```
    public init(key: String, order: SortOrder = .forward, nils: NilPlacement = .first,
                comparison: StringComparison = .binary) {
        self.key = key
        self.order = order
        self.nils = nils
        self.comparison = comparison
        error = nil
    }

    var isAscending: Bool { order == .forward }
}

/// A sort descriptor resolved against an entity: the slot to read and how to compare.
struct ResolvedSort: Sendable {
    /// The object's storage slot to read; `Int.max` when the sort reads through relationships
    /// (readers of storage then see nil: use ``value(of:)``).
    let slot: Int
    /// The attribute's name, or the key path (`project.name`).
    let name: String
    let ascending: Bool
    let nilsFirst: Bool
    let collation: TextCollation
    /// The to-ones followed before the attribute (`project`, `owner`); empty for the object's own.
    let hops: [PredicateKey.Hop]
    /// The attribute's slot in the entity the hops end at.
    let targetSlot: Int

    init<Root>(_ descriptor: FetchSortDescriptor<Root>, entity: EntityDescription) throws {
        if let error = descriptor.error { throw error }
        ascending = descriptor.isAscending
        nilsFirst = descriptor.nils == .first
        collation = descriptor.comparison.collation
        name = descriptor.key
        if !PredicateKey.isPath(descriptor.key), let attribute = entity.attribute(named: descriptor.key) {
            slot = attribute.index
            targetSlot = attribute.index
            hops = []
            return
        }
        let resolved: PredicateKey.Resolved
        do {
            resolved = try PredicateKey.resolve(descriptor.key, in: entity)
        } catch let error as PersistError {
            throw PersistError(.invalidRequest, "Cannot sort \(entity.name) by \(descriptor.key): " + error.message,
                               entity: entity.name, attribute: descriptor.key)
        }
        guard case .attribute(let attribute) = resolved.target, !resolved.hops.isEmpty else {
            throw PersistError(.invalidRequest,
                "Cannot sort \(entity.name) by \(descriptor.key): it is a relationship, not an attribute (sort by one of its attributes, as \(descriptor.key).name)",
                entity: entity.name, attribute: descriptor.key)
        }
        slot = Int.max
        targetSlot = attribute.index
        hops = resolved.hops
    }

    /// The value the sort reads from an object: its attribute, or through its to-ones (nil when
    /// one on the way is nil), in its context's current state.
    @inline(__always)
    func value(of object: ManagedObject) -> SQLValue {
        guard !hops.isEmpty else { return object.storage[slot] }
        var current = object
        for hop in hops {
            guard let next = current.relatedObject(at: hop.relationship.index) else { return .null }
            current = next
        }
        return targetSlot < current.storage.count ? current.storage[targetSlot] : .null
    }

    /// Compares two stored values as the SQL clause orders them.
    @inline(__always)
    func compare(_ a: SQLValue, _ b: SQLValue) -> Int {
        switch (a.isNull, b.isNull) {
        case (true, true): return 0
        case (true, false): return nilsFirst ? -1 : 1
        case (false, true): return nilsFirst ? 1 : -1
        case (false, false):
            let order = SQLValue.compare(a, b, collation: collation)
            return ascending ? order : -order
        }
    }
}
