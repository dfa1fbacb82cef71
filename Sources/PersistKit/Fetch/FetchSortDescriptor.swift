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
///
/// `Root` is the class of the objects sorted: a request's `Result`, which a descriptor takes
/// from the request it is given to, whether it names its attribute with a key path or a string
/// (`FetchRequest<TaskItem>(sortBy: [FetchSortDescriptor(key: "project.name")])`).
public struct FetchSortDescriptor<Root>: Sendable {
    // `Root` is not declared `: ManagedObject`: with that bound, a `FetchSortDescriptor(key:)` in
    // a request's array literal was typed `FetchSortDescriptor<ManagedObject>` (the bound) before
    // the request's `Result` was known, and did not compile. The initializers that need it say so.

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
                                       nils: NilPlacement = .first, comparison: StringComparison = .binary)
    where Root: ManagedObject {
        self.order = order
        self.nils = nils
        self.comparison = comparison
        switch FetchPredicate<Root>.attributeKey(keyPath) {
        case .success(let (name, _)):
            key = name
            error = nil
        case .failure(let failure):
            key = FetchPredicate<Root>.describe(keyPath)
            error = PersistError(.invalidRequest, "Cannot sort \(Root.self): " + failure.message,
                                 entity: failure.entity, attribute: failure.attribute)
        }
    }

    /// Sorts by an attribute named by a string (for models loaded from a document), or by a key
    /// path through to-one relationships (`"project.name"`, nil when the project is). The
    /// descriptor takes its `Root` from the request it goes into.
    ///
    /// ```swift
    /// FetchRequest<TaskItem>(sortBy: [FetchSortDescriptor(key: "project.name"), FetchSortDescriptor(\.name)])
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
