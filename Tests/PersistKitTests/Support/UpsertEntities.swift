import Foundation
import PersistKitTestSupport
@testable import PersistKit

/// A graph for upsert tests: every entity with a uniqueness constraint meets each kind of
/// relationship storage (a foreign key pointing at it, a join table it owns, one owned by the
/// other side, an ordered join table, a one-to-one).
final class UPTag: ManagedObject {
    @Attribute(.unique) var label: String
    @Attribute(.unique) var shortcut: String?
    @Attribute var color: String?
    @Attribute var uses = 0
    /// Owned by UPTag ("UPTag" sorts before "UPTask"): the join table's `owner` is the tag.
    @Relationship(inverse: \UPTask.tags) var tasks: Set<UPTask>
}

final class UPTask: ManagedObject {
    @Attribute var title: String
    @Relationship var tags: Set<UPTag>
    @Relationship(inverse: \UPProject.tasks) var project: UPProject?
    /// Owned by UPTask ("UPTask" sorts before "UPZone"): the zone is the join table's destination.
    @Relationship(inverse: \UPZone.tasks) var zones: Set<UPZone>
}

final class UPProject: ManagedObject {
    @Attribute(.unique) var code: String
    @Attribute var name: String?
    @Relationship var tasks: Set<UPTask>
}

final class UPZone: ManagedObject {
    @Attribute(.unique) var name: String
    @Attribute var floor = 0
    @Relationship var tasks: Set<UPTask>
}

final class UPPlaylist: ManagedObject {
    @Attribute(.unique) var name: String
    @Relationship(inverse: .none) var songs: [UPSong]
}

final class UPSong: ManagedObject {
    @Attribute var title: String
}

/// A compound constraint, and a one-to-one (a foreign key on both sides).
final class UPPerson: ManagedObject {
    override class var uniquenessConstraints: [[String]] { [["first", "last"]] }
    @Attribute var first: String
    @Attribute var last: String?
    @Attribute var born = 0
    @Relationship(inverse: \UPDesk.person) var desk: UPDesk?
}

final class UPDesk: ManagedObject {
    @Attribute var number = 0
    @Relationship var person: UPPerson?
}

let upsertEntities: [ManagedObject.Type] = [UPTag.self, UPTask.self, UPProject.self, UPZone.self, UPPlaylist.self,
                                            UPSong.self, UPPerson.self, UPDesk.self]

/// A container on a SQLite file at `url` (or a fresh one in `directory`) for the upsert entities.
func makeUpsertContainer(_ directory: TemporaryDirectory, url: URL? = nil) throws -> PersistentContainer {
    try PersistentContainer(model: ManagedObjectModel(entities: upsertEntities),
                            store: .sqlite(url ?? directory.file("upsert-\(UUID().uuidString).sqlite")))
}
