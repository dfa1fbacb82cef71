/// How a context settles a conflict: an object it saves was changed or deleted by another
/// context or process since it read it, in a key this save changes too; or an object it
/// inserts has the unique values of another.
///
/// Whatever the policy, a save combines key by key first: keys that only the other side
/// changed keep its values, and keys only this context changed are written, so two contexts
/// changing different attributes of one object both save, and the row has both changes.
/// A policy decides only what happens to keys both sides changed (even to the same value: two
/// read-modify-writes of a counter write the same number, and neither may be lost), and to
/// deletions.
///
/// ```swift
/// context.mergePolicy = .storeTrump     // the other side's values win, key by key
/// ```
///
/// | Policy | Key changed on both sides | Deleted here, changed elsewhere | Changed here, deleted elsewhere |
/// | --- | --- | --- | --- |
/// | ``error`` | throws `.conflict` | throws `.conflict` | throws `.conflict` |
/// | ``objectTrump`` | this context's value | deleted | throws `.conflict` |
/// | ``storeTrump`` | the stored value | not deleted: takes the stored values | changes dropped |
/// | ``rollback`` | the object's changes are all dropped | not deleted: takes the stored values | changes dropped |
public enum MergePolicy: Sendable {
    /// Throw a `.conflict` error listing the objects, and each key's stored and local values;
    /// nothing is written (the default, as Core Data's `NSErrorMergePolicy`). An insert
    /// breaking a uniqueness constraint throws `.constraintViolation`.
    case error
    /// Write this context's values over the store's for the keys both changed (Core Data's
    /// `NSMergeByPropertyObjectTrumpMergePolicy`). An insert whose unique values another
    /// object has updates that object instead (an upsert):
    ///
    /// ```swift
    /// context.mergePolicy = .objectTrump
    /// let tag = Tag(context: context)
    /// tag.label = "urgent"          // a stored Tag "urgent" exists
    /// try context.save()            // one row: the stored one, with the insert's values
    /// ```
    case objectTrump
    /// Keep the store's values for the keys both changed, and write this context's other
    /// changes (Core Data's `NSMergeByPropertyStoreTrumpMergePolicy`).
    case storeTrump
    /// Drop every change this context made to an object in conflict, which takes the stored
    /// values; the save's other objects are saved (Core Data's `NSRollbackMergePolicy`).
    case rollback
}
