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

    /// Sorts by the attribute a plain key path names.
    ///
    /// ```swift
    /// FetchSortDescriptor(\TaskItem.due, order: .reverse, nils: .last)
    /// ```
    public init<Value: AttributeValue>(_ keyPath: KeyPath<Root, Value>, order: SortOrder = .forward,
                                       nils: NilPlacement = .first, comparison: StringComparison = .binary) {
        self.order = order
        self.nils = nils
        self.comparison = comparison
        switch FetchPredicate<Root>.attributeName(keyPath) {
        case .success(let attribute):
            key = attribute.name
            error = nil
        case .failure(let failure):
            key = "\(keyPath)"
            error = PersistError(.invalidRequest, "Cannot sort by \(keyPath): " + failure.message, entity: failure.entity)
        }
    }

    /// Sorts by an attribute named by a string (for models loaded from a document).
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
    let slot: Int
    let name: String
    let ascending: Bool
    let nilsFirst: Bool
    let collation: TextCollation

    init<Root>(_ descriptor: FetchSortDescriptor<Root>, entity: EntityDescription) throws {
        if let error = descriptor.error { throw error }
        guard let attribute = entity.attribute(named: descriptor.key) else {
            throw PersistError(.invalidRequest, "Cannot sort \(entity.name) by \(descriptor.key): no such attribute",
                               entity: entity.name, attribute: descriptor.key)
        }
        slot = attribute.index
        name = attribute.name
        ascending = descriptor.isAscending
        nilsFirst = descriptor.nils == .first
        collation = descriptor.comparison.collation
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
