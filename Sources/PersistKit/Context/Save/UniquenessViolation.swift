/// Two objects that a save would leave with the same values for a uniqueness constraint.
struct UniquenessViolation {
    /// The object whose new values collide.
    let object: ManagedObject
    /// The constraint's attributes, in its order.
    let attributes: [AttributeDescription]
    /// The object's values of those attributes.
    let values: [SQLValue]
    /// The object already holding the values: a stored row, or another object of the save.
    let holder: ObjectID
    /// Whether the holder is another object of the same save rather than a stored row.
    let holderIsPending: Bool

    /// The constraint's keys.
    var keys: [String] { attributes.map(\.name) }

    /// `Task.name "Buy milk" is already used by Task 3`;
    /// `Person (first, last) = ("Ann", "Lee") is already used by another new Person in this save`.
    var sentence: String {
        let entity = object.entity.name
        let shown = zip(values, attributes).map { ValueText.describe($0, as: $1.type) }
        let what = attributes.count == 1 ? "\(entity).\(keys[0]) \(shown[0])"
            : "\(entity) (\(keys.joined(separator: ", "))) = (\(shown.joined(separator: ", ")))"
        let holderEntity = holder.entityName   // another entity of a tree, for a parent's constraint
        let by: String
        if !holderIsPending {
            by = "\(holderEntity) \(holder.key)"
        } else if holder.isTemporary {
            by = "another new \(holderEntity) in this save"
        } else {
            by = "\(holderEntity) \(holder.key) (changed in this save)"
        }
        return what + " is already used by " + by
    }
}
