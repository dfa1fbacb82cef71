import Synchronization

/// What a plain key path of an entity class reads, found once by reading it on probes (see
/// ``KeyPathProbe``): an attribute (perhaps through to-ones: `\TaskItem.project?.name`), a
/// to-one (`\TaskItem.project`), a to-many (`\TaskItem.tags`) or a to-many's count
/// (`\TaskItem.tags.count`).
enum KeyPathTarget: Sendable {
    case attribute(key: String, AttributeDescription)
    case toOne(key: String, RelationshipDescription)
    case toMany(path: String, RelationshipDescription)
    case count(path: String)
}
