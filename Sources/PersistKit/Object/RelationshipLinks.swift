/// A relationship's links, one object at a time: what `project.$tasks` gives.
///
/// ```swift
/// project.$tasks.insert(task)      // links one task: project.tasks contains it, task.project is project
/// project.$tasks.remove(task)      // unlinks it
/// project.$tasks.contains(task)    // whether it is linked
/// ```
///
/// Assigning a to-many property after changing its value (`project.tasks.insert(task)`) hands
/// the context a whole new set, which it compares with the one it held: one pass over the
/// related objects per link. The links here change one link without making or comparing a
/// collection, so relating 100,000 objects one by one costs 100,000 steps, not 100,000 squared.
/// They keep the inverse, and refuse what the property refuses (an object of another context,
/// a deleted one, one in no context: the next save names the relationship), as the property does.
/// On a to-one, `insert` sets it and `remove` clears it when it holds that object.
///
/// Each `insert` and `remove` costs O(1) amortised: the member is found through the list's
/// member index (made in one pass by the first such edit of a loaded list, then kept), and the
/// list changes in place. On an ordered to-many, `insert` appends; `remove` closes the gap in
/// the array (O(*n*) element moves, and the next edit makes the member index again) while the
/// others keep their stored positions, so the save writes one row either way (an ordered
/// to-many kept in a join table has its owner's links rewritten: see <doc:Relationships>).
public struct RelationshipLinks<Destination: ManagedObject> {
    let object: ManagedObject
    let index: Int

    /// Links `member`: the relationship holds it afterwards (at the end, for an ordered one);
    /// nothing changes when it held it already.
    public func insert(_ member: Destination) {
        guard index >= 0, !object.isProbe else { return }
        object.setLink(member, at: index, linked: true)
    }

    /// Unlinks `member`; nothing changes when the relationship did not hold it.
    public func remove(_ member: Destination) {
        guard index >= 0, !object.isProbe else { return }
        object.setLink(member, at: index, linked: false)
    }

    /// Whether the relationship holds `member` (false when the object is in no context).
    public func contains(_ member: Destination) -> Bool {
        guard index >= 0, !object.isProbe, let context = object.managedObjectContext else { return false }
        return context.holdsLink(member, of: object, relationship: index)
    }

    /// How many objects the relationship holds (0 when the object is in no context).
    public var count: Int {
        guard index >= 0, !object.isProbe, let context = object.managedObjectContext else { return 0 }
        return context.linkCount(of: object, relationship: index)
    }
}
