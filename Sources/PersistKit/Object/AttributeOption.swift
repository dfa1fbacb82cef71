import Foundation

/// An option of an `@Attribute`: uniqueness, or a rule its value must satisfy at save.
///
/// ```swift
/// final class Project: ManagedObject {
///     @Attribute(.unique, .minLength(1), .maxLength(100)) var name: String
///     @Attribute(.range(0...10)) var rating = 5
///     @Attribute(.pattern("[A-Z]{3}-[0-9]+")) var code: String?
///     @Attribute(.minimum(Date(timeIntervalSinceReferenceDate: 0))) var due: Date?
/// }
/// ```
///
/// Rules are checked by ``ManagedObjectContext/save()``, which throws `.validation` listing
/// every value that breaks one; nil values of optional attributes are not checked. Rules do
/// not change the stored schema: adding or changing one leaves the model's
/// ``ManagedObjectModel/versionHash`` (and its model document) as they were, so existing
/// stores open as before. `.unique` does change the schema (it adds a unique index), and so
/// does `.externalStorage` (see <doc:WorkingWithLargeData>).
public struct AttributeOption<Value: AttributeValue>: Sendable, Hashable {
    @usableFromInline let kind: AttributeOptionKind

    // Options are made each time an object is (property initializers run per instance):
    // inlinable, so they are specialized where declared and cost next to nothing.
    @inlinable
    init(kind: AttributeOptionKind) {
        self.kind = kind
    }

    /// The attribute's value is unique among all objects of the entity: the same as naming
    /// it alone in the entity's ``ManagedObject/uniquenessConstraints``. A save that would
    /// give two objects the same value throws `.constraintViolation`. nil values never collide.
    @inlinable
    public static var unique: AttributeOption { AttributeOption(kind: .unique) }
}

extension AttributeOption where Value: MeasuredAttributeValue {
    /// The value has at least `count` characters (strings, counted as `String.count` counts:
    /// grapheme clusters) or bytes (data).
    @inlinable
    public static func minLength(_ count: Int) -> AttributeOption {
        AttributeOption(kind: .length(minimum: count, maximum: nil))
    }

    /// The value has at most `count` characters (strings) or bytes (data).
    @inlinable
    public static func maxLength(_ count: Int) -> AttributeOption {
        AttributeOption(kind: .length(minimum: nil, maximum: count))
    }

    /// The value's length is in `counts`: `.length(1...1000)` is `.minLength(1), .maxLength(1000)`.
    @inlinable
    public static func length(_ counts: ClosedRange<Int>) -> AttributeOption {
        AttributeOption(kind: .length(minimum: counts.lowerBound, maximum: counts.upperBound))
    }
}

extension AttributeOption where Value: OrderedAttributeValue {
    /// The value is at least `bound`: `@Attribute(.minimum(0)) var count = 0`.
    @inlinable
    public static func minimum(_ bound: Value.Bound) -> AttributeOption {
        AttributeOption(kind: .encodedBounds(bound, nil))
    }

    /// The value is at most `bound`.
    @inlinable
    public static func maximum(_ bound: Value.Bound) -> AttributeOption {
        AttributeOption(kind: .encodedBounds(nil, bound))
    }

    /// The value is in `bounds`: `@Attribute(.range(0...10)) var rating = 5`.
    @inlinable
    public static func range(_ bounds: ClosedRange<Value.Bound>) -> AttributeOption {
        AttributeOption(kind: .encodedBounds(bounds.lowerBound, bounds.upperBound))
    }
}

extension AttributeOption where Value == String {
    /// The whole value matches a regular expression (ICU syntax, as `NSRegularExpression` and
    /// Core Data's `MATCHES`): `.pattern("[a-z]+")` accepts `"abc"`, not `"abc1"`.
    @inlinable
    public static func pattern(_ regularExpression: String) -> AttributeOption {
        AttributeOption(kind: .pattern(regularExpression))
    }
}

extension AttributeOption where Value == String? {
    /// The whole value, when there is one, matches a regular expression (ICU syntax).
    @inlinable
    public static func pattern(_ regularExpression: String) -> AttributeOption {
        AttributeOption(kind: .pattern(regularExpression))
    }
}

extension AttributeOption where Value == Data {
    /// Values larger than 100 KB (102,400 bytes) are kept in a file beside the store, the row
    /// keeping its name; smaller ones stay in the row. Core Data's "Allows External Storage".
    ///
    /// ```swift
    /// @Attribute(.externalStorage) var photo: Data
    /// ```
    ///
    /// A fetch does not read the files: a value is read when the property is first read, and
    /// kept until the object is refreshed (``ManagedObjectContext/refresh(_:mergeChanges:)``)
    /// or freed. The store's folder `<store file>-external` goes with the store file: copy,
    /// move and delete them together. See <doc:WorkingWithLargeData>.
    @inlinable
    public static var externalStorage: AttributeOption { AttributeOption(kind: .externalStorage(threshold: ExternalStorage.defaultThreshold)) }

    /// Values larger than `threshold` bytes are kept in a file beside the store; smaller ones
    /// stay in the row (0 puts every non-empty value in a file).
    ///
    /// ```swift
    /// @Attribute(.externalStorage(threshold: 1_000_000)) var video: Data
    /// ```
    @inlinable
    public static func externalStorage(threshold: Int) -> AttributeOption {
        AttributeOption(kind: .externalStorage(threshold: threshold))
    }
}

extension AttributeOption where Value == Data? {
    /// Values larger than 100 KB (102,400 bytes) are kept in a file beside the store, the row
    /// keeping its name; smaller ones, and nil, stay in the row. Core Data's "Allows External
    /// Storage".
    ///
    /// ```swift
    /// @Attribute(.externalStorage) var photo: Data?
    /// ```
    ///
    /// A fetch does not read the files: a value is read when the property is first read, and
    /// kept until the object is refreshed (``ManagedObjectContext/refresh(_:mergeChanges:)``)
    /// or freed. The store's folder `<store file>-external` goes with the store file: copy,
    /// move and delete them together. See <doc:WorkingWithLargeData>.
    @inlinable
    public static var externalStorage: AttributeOption { AttributeOption(kind: .externalStorage(threshold: ExternalStorage.defaultThreshold)) }

    /// Values larger than `threshold` bytes are kept in a file beside the store; smaller ones,
    /// and nil, stay in the row (0 puts every non-empty value in a file).
    ///
    /// ```swift
    /// @Attribute(.externalStorage(threshold: 1_000_000)) var video: Data?
    /// ```
    @inlinable
    public static func externalStorage(threshold: Int) -> AttributeOption {
        AttributeOption(kind: .externalStorage(threshold: threshold))
    }
}
