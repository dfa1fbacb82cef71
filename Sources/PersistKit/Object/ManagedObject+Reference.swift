extension ManagedObject {
    /// How storage and predicates refer to the object: its primary key, or its temporary key
    /// negated while it is unsaved (what a to-one's foreign-key slot holds).
    var storageReference: Int64 {
        hasTemporaryKey ? -identityKey : identityKey
    }
}
