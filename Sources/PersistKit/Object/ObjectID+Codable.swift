import Foundation

// The encoded form is the one the synthesized conformance wrote when `ObjectID` stored its
// names as Strings (keys in that order), so IDs encoded by earlier versions still decode.
extension ObjectID: Codable {
    private enum CodingKeys: String, CodingKey {
        case entityName, storeIdentifier, key, isTemporary
    }

    /// Decodes an ID from its entity name, store identifier, key and kind.
    ///
    /// ```swift
    /// let id = try JSONDecoder().decode(ObjectID.self, from: saved)
    /// ```
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let entityName = try container.decode(String.self, forKey: .entityName)
        let storeIdentifier = try container.decode(String.self, forKey: .storeIdentifier)
        let key = try container.decode(Int64.self, forKey: .key)
        let isTemporary = try container.decode(Bool.self, forKey: .isTemporary)
        self.init(entityName: entityName, storeIdentifier: storeIdentifier, key: key, isTemporary: isTemporary)
    }

    /// Encodes the ID as its entity name, store identifier, key and kind.
    ///
    /// ```swift
    /// let saved = try JSONEncoder().encode(task.objectID)
    /// ```
    public func encode(to encoder: any Encoder) throws {
        let names = scope.names
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(names.entityName, forKey: .entityName)
        try container.encode(names.storeIdentifier, forKey: .storeIdentifier)
        try container.encode(key, forKey: .key)
        try container.encode(isTemporary, forKey: .isTemporary)
    }
}
