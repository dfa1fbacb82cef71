import Foundation
import PersistKit

/// A key's value as it travels to and from the server, in JSON: a stored value of the store
/// (NULL, integer, real, text, blob), or, for a relationship, the global ID of the object it
/// holds (text). Reals that JSON cannot write (infinities) and blobs are small objects:
/// `{"r": "inf"}`, `{"b": "<base64>"}`.
struct SyncValue: Sendable, Hashable, Codable {
    var stored: SQLValue

    init(_ stored: SQLValue) { self.stored = stored }

    static let null = SyncValue(.null)

    private enum Special: String, CodingKey { case real = "r", blob = "b" }

    init(from decoder: Decoder) throws {
        if let container = try? decoder.container(keyedBy: Special.self) {
            if let data = try container.decodeIfPresent(String.self, forKey: .blob) {
                guard let bytes = Data(base64Encoded: data) else {
                    throw DecodingError.dataCorruptedError(forKey: .blob, in: container, debugDescription: "not base64")
                }
                stored = .blob(bytes)
                return
            }
            let text = try container.decode(String.self, forKey: .real)
            switch text {
            case "inf": stored = .real(.infinity)
            case "-inf": stored = .real(-.infinity)
            default: stored = .real(.nan)
            }
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            stored = .null
        } else if let integer = try? single.decode(Int64.self) {
            stored = .integer(integer)
        } else if let real = try? single.decode(Double.self) {
            stored = .real(real)
        } else {
            stored = .text(try single.decode(String.self))
        }
    }

    func encode(to encoder: Encoder) throws {
        switch stored {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .integer(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .real(let value) where value.isFinite:
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .real(let value):
            var container = encoder.container(keyedBy: Special.self)
            try container.encode(value.isNaN ? "nan" : value > 0 ? "inf" : "-inf", forKey: .real)
        case .text(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .blob(let value):
            var container = encoder.container(keyedBy: Special.self)
            try container.encode(value.base64EncodedString(), forKey: .blob)
        }
    }

    /// The text, for a reference or an order key; nil for any other value.
    var text: String? {
        if case .text(let text) = stored { return text }
        return nil
    }

    /// The value a column of `type` holds: a real column keeps integers as reals.
    func stored(as type: AttributeType) -> SQLValue {
        switch (stored, type) {
        case (.integer(let value), .double), (.integer(let value), .float), (.integer(let value), .date):
            return .real(Double(value))
        default:
            return stored
        }
    }
}
