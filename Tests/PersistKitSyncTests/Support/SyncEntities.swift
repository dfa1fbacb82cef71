import Foundation
import PersistKit

/// The model the sync tests sync: attributes of several types, a to-one with an ordered
/// inverse (a folder's notes, in order), a many-to-many (labels), an ordered many-to-many
/// (a folder's pinned notes) and a uniqueness constraint (a label's name).
final class SNote: ManagedObject {
    @Attribute var title = ""
    @Attribute var body: String?
    @Attribute var count = 0
    @Attribute var score = 0.0
    @Attribute var due: Date?
    @Relationship(inverse: \SFolder.notes) var folder: SFolder?
    @Relationship(inverse: \SLabel.notes) var labels: Set<SLabel>
}

final class SFolder: ManagedObject {
    @Attribute var name = ""
    @Relationship var notes: [SNote]
    /// Ordered, without an inverse: a join table that keeps order.
    @Relationship(inverse: .none) var pinned: [SNote]
}

final class SLabel: ManagedObject {
    @Attribute(.unique) var name = ""
    @Relationship var notes: Set<SNote>
}

/// Stays in each store (excluded from sync).
final class SLocal: ManagedObject {
    @Attribute var value = 0
}

/// Keeps large values in files beside the store (not synced: a round refuses it unless excluded).
final class SBlob: ManagedObject {
    @Attribute var name = ""
    @Attribute(.externalStorage) var bytes = Data()
}

/// The root of an entity inheritance tree (not synced yet: a round refuses it unless excluded).
class SPet: ManagedObject {
    @Attribute var name = ""
}

/// A sub-entity of ``SPet``.
final class SCat: SPet {
    @Attribute var lives = 9
}

enum SyncModel {
    static func make(version: Int = 1) throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [SNote.self, SFolder.self, SLabel.self, SLocal.self], version: version)
    }
}
