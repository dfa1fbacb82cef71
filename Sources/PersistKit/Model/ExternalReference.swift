import Foundation

/// What a row holds for a value kept in a file: the file's name, a UUID, and the value's size
/// in bytes, as the TEXT `<UUID>:<byte count>` (`3F2504E0-4F89-11D3-9A0C-0305E82C3301:204800`).
///
/// A value kept in the row is a BLOB, so the column's storage class tells the two apart; the
/// object's storage slot holds the same TEXT until the value is read (see
/// `ManagedObject+ExternalData.swift`). Each file belongs to one row: a new value is a new file,
/// and a reference is never copied to another row.
struct ExternalReference: Hashable, Sendable {
    /// The file's name in the store's folder: a UUID in its canonical upper-case form.
    let fileName: String
    /// The value's size, which the file must have.
    let byteCount: Int

    /// A reference to a new file for a value of `byteCount` bytes.
    init(newFileFor byteCount: Int) {
        fileName = UUID().uuidString
        self.byteCount = byteCount
    }

    /// The reference a row's TEXT holds; nil for any other text, so that a damaged or hostile
    /// store can never name a path outside the folder.
    init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let uuid = UUID(uuidString: String(parts[0])), uuid.uuidString == parts[0],
              parts[1].allSatisfy(\.isASCII), let count = Int(parts[1]), count >= 0, String(count) == parts[1] else { return nil }
        fileName = String(parts[0])
        byteCount = count
    }

    /// A stored value's reference: nil for anything but the TEXT of one.
    init?(_ value: SQLValue) {
        guard case .text(let text) = value else { return nil }
        self.init(text)
    }

    /// The TEXT a row holds.
    var text: String { fileName + ":" + String(byteCount) }

    /// The reference as a stored value.
    var storedValue: SQLValue { .text(text) }
}
