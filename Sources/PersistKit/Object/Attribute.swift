import Foundation

/// Declares a persistent attribute of a ``ManagedObject`` subclass.
///
/// ```swift
/// final class TaskItem: ManagedObject {
///     @Attribute var name: String              // required: must be set before save
///     @Attribute var notes: String?            // optional
///     @Attribute var isComplete = false        // default false
///     @Attribute var priority: Priority = .normal
///     @Attribute(.unique, .maxLength(64)) var code: String   // see AttributeOption
/// }
/// ```
///
/// Reads and writes go to the object's storage (one slot per attribute); a write that changes
/// the value is tracked by the object's context, a write of an equal value changes nothing.
@propertyWrapper
public struct Attribute<Value: AttributeValue> {
    /// The attribute's storage slot, written into each object's wrappers when the object is
    /// made (see `AttributeFieldOffsets`): a read loads it instead of looking up the storage
    /// key path. -1 until then (and for a wrapper that names no attribute of the object's
    /// entity), which the accessors resolve once, or treat as "no slot".
    @usableFromInline var slot = -1
    /// The declared initial value (the attribute's default), if any.
    @usableFromInline let initialValue: Value?
    /// The declared options (uniqueness, validation rules); read once, from the entity's probe.
    /// nil for none: every object has its wrappers, and an empty array costs each a release
    /// (a nil one does not).
    let options: [AttributeOption<Value>]?
    /// The attribute's name in the previous model version, when this version renamed it.
    @usableFromInline let originalName: String?

    /// An attribute with an initial value, which is its default, and options:
    /// `@Attribute(.range(1...5)) var rating = 3`.
    ///
    /// ```swift
    /// @Attribute var isComplete = false
    /// @Attribute(.range(1...5)) var rating = 3
    /// ```
    public init(wrappedValue: Value, _ options: AttributeOption<Value>...) {
        initialValue = wrappedValue
        self.options = options.isEmpty ? nil : options
        originalName = nil
    }

    /// An attribute renamed since the previous model version, with an initial value: a
    /// migration keeps its values (see <doc:MigratingAModel>).
    ///
    /// ```swift
    /// @Attribute(originalName: "done") var isComplete = false
    /// ```
    public init(wrappedValue: Value, originalName: String, _ options: AttributeOption<Value>...) {
        initialValue = wrappedValue
        self.options = options.isEmpty ? nil : options
        self.originalName = originalName
    }

    /// An attribute without an initial value. Optional attributes start as nil; other ones are
    /// required (a save fails until they are set) and read as their type's placeholder (`""`,
    /// `0`, `false`...) until then. Types without a placeholder (enums, `Codable` values) must
    /// declare an initial value: the model rejects them otherwise.
    ///
    /// ```swift
    /// @Attribute var name: String       // required: "" until set, and a save fails while it is unset
    /// @Attribute var due: Date?         // optional: nil until set
    /// ```
    public init() {
        initialValue = nil
        options = nil
        originalName = nil
    }

    /// An attribute without an initial value (see ``init()``), with options:
    ///
    /// ```swift
    /// @Attribute(.minLength(1), .maxLength(1000)) var name: String
    /// ```
    public init(_ options: AttributeOption<Value>...) {
        initialValue = nil
        self.options = options.isEmpty ? nil : options
        originalName = nil
    }

    /// An attribute renamed since the previous model version (`title` is now `name`): a
    /// migration keeps its values under the new name (see <doc:MigratingAModel>).
    ///
    /// ```swift
    /// @Attribute(originalName: "title") var name: String
    /// ```
    public init(originalName: String, _ options: AttributeOption<Value>...) {
        initialValue = nil
        self.options = options.isEmpty ? nil : options
        self.originalName = originalName
    }

    /// Attributes live in their object's storage; this accessor is never used.
    @available(*, unavailable, message: "@Attribute can only be used in ManagedObject subclasses")
    public var wrappedValue: Value {
        get { Attribute.unsetValue(initialValue) }
        // swiftlint:disable:next unused_setter_value
        set { _ = newValue }
    }

    /// Reads and writes the attribute through its object's storage.
    ///
    /// Inlined into each entity's accessors, in the module that declares it: the slot is a
    /// field of the wrapper (given when the object was made), which the compiler loads
    /// directly; the key paths it passes are then unused, and never made.
    @inlinable
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Attribute<Value>>
    ) -> Value {
        @inline(__always) get {
            var slot = object[keyPath: storageKeyPath].slot
            if slot == -1 {
                object.installAttributeSlots()
                slot = object[keyPath: storageKeyPath].slot
            }
            guard slot >= 0, slot < object.storage.count else {
                return unsetValue(object[keyPath: storageKeyPath].initialValue)
            }
            // A probe records the attribute read (see `KeyPathProbe`); a read in an observable
            // context registers with Observation. One bit test for both.
            if _slowPath(object.readsNeedNoting) { object.noteRead(slot: slot) }
            return Value(storedValue: object.storage[slot]) ?? storedElsewhereOrUnset(object, slot, object[keyPath: storageKeyPath].initialValue)
        }
        @inline(__always) set {
            var slot = object[keyPath: storageKeyPath].slot
            if slot == -1 {
                object.installAttributeSlots()
                slot = object[keyPath: storageKeyPath].slot
            }
            guard slot >= 0, slot < object.storage.count else { return }
            do {
                object.setStoredValue(try newValue.makeStoredValue(), at: slot)
            } catch {
                object.recordEncodingProblem(at: slot, error)
            }
        }
    }

    /// The value of a slot that holds no value of the type: a value kept in a file (a
    /// `.externalStorage` attribute's reference), read now; else what ``unsetValue(_:)`` gives.
    /// A file that cannot be read gives nil (or the placeholder): `value(forKey:)` says why.
    @usableFromInline
    static func storedElsewhereOrUnset(_ object: ManagedObject, _ slot: Int, _ initialValue: Value?) -> Value {
        if case .text = object.storage[slot], let stored = try? object.externalStoredValue(object.storage[slot], at: slot),
           let value = Value(storedValue: stored) {
            return value
        }
        return unsetValue(initialValue)
    }

    /// What an attribute reads as while it holds no value: its initial value, else its type's
    /// placeholder. Only a programming error reaches the end: a model with a required
    /// attribute of a type without placeholder is rejected when the model is created.
    @usableFromInline
    static func unsetValue(_ initialValue: Value?) -> Value {
        if let initialValue { return initialValue }
        if let placeholder = (Value.self as? any PlaceholderAttributeValue.Type)?.attributePlaceholder as? Value {
            return placeholder
        }
        for candidate: SQLValue in [.integer(0), .real(0), .text(""), .text("{}"), .text("[]"), .blob(Data())] {
            if let value = Value(storedValue: candidate) { return value }
        }
        preconditionFailure("An @Attribute of type \(Value.self) was read before it was set, and it has no initial value: declare one")
    }
}

extension Attribute: AttributeWrapper {
    @usableFromInline static var valueType: any AttributeValue.Type { Value.self }
    @usableFromInline var hasInitialValue: Bool { initialValue != nil }
    @usableFromInline static var slotFieldOffset: Int? { MemoryLayout<Self>.offset(of: \Self.slot) }
    @usableFromInline var optionKinds: [AttributeOptionKind] { options?.map(\.kind) ?? [] }
    @usableFromInline func initialStoredValue() throws -> SQLValue { try initialValue?.makeStoredValue() ?? .null }
}
