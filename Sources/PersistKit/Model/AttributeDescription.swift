/// One attribute of an entity: its name, type, optionality, default and validation rules.
///
/// ```swift
/// for attribute in model.entity(named: "Task")?.attributes ?? [] {
///     print(attribute.name, attribute.type, attribute.isOptional ? "optional" : "required")
/// }
/// ```
public struct AttributeDescription: Sendable, Hashable {
    /// The attribute's name, which is also its column name.
    public let name: String
    /// The declared type.
    public let type: AttributeType
    /// Whether nil (NULL) is allowed.
    public let isOptional: Bool
    /// The stored form of the declared initial value, if one was declared.
    public let defaultValue: SQLValue?
    /// The attribute's index in its entity, which is also its slot in each object's storage.
    public let index: Int
    /// The Swift type name, for error messages (`Priority`, `Date?`); empty for document models.
    public let valueTypeName: String
    /// The rules a value must satisfy at save (none for attributes of document models).
    public let validation: AttributeValidation
    /// The attribute's name in the previous model version, when this version renamed it
    /// (`@Attribute(originalName:)`); a migration keeps its values.
    public let originalName: String?
    /// For a binary attribute declared `.externalStorage`: values larger than this many bytes
    /// are kept in files beside the store. nil when every value stays in its row.
    public let externalStorageThreshold: Int?

    init(name: String, type: AttributeType, isOptional: Bool, defaultValue: SQLValue?, index: Int,
         valueTypeName: String, validation: AttributeValidation = AttributeValidation(), originalName: String? = nil,
         externalStorageThreshold: Int? = nil) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.index = index
        self.valueTypeName = valueTypeName
        self.validation = validation
        self.originalName = originalName
        self.externalStorageThreshold = externalStorageThreshold
    }

    /// Whether large values may be kept in files beside the store (`.externalStorage`).
    public var allowsExternalStorage: Bool { externalStorageThreshold != nil }

    /// Whether a value must be set before save: not optional and no initial value.
    public var isRequired: Bool { !isOptional && defaultValue == nil }

    /// The value a new object starts with: the default, else NULL (which reads as the type's
    /// placeholder and fails validation if still unset at save).
    var initialStoredValue: SQLValue { defaultValue ?? .null }

    /// Whether two descriptions describe the same attribute, default, validation, original name
    /// and external storage included.
    public static func == (lhs: AttributeDescription, rhs: AttributeDescription) -> Bool {
        lhs.name == rhs.name && lhs.type == rhs.type && lhs.isOptional == rhs.isOptional
            && lhs.index == rhs.index && SQLValue.identical(lhs.defaultValue ?? .null, rhs.defaultValue ?? .null)
            && (lhs.defaultValue == nil) == (rhs.defaultValue == nil) && lhs.validation == rhs.validation
            && lhs.originalName == rhs.originalName && lhs.externalStorageThreshold == rhs.externalStorageThreshold
    }

    /// Hashes the name, type and index.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(type)
        hasher.combine(index)
    }
}
