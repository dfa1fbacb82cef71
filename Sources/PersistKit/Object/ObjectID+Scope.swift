extension ObjectID {
    /// An interned (entity name, store identifier) pair: the part of an ``ObjectID`` that is
    /// not its key. Equal pairs always have equal scopes, in any thread, for the life of the
    /// process.
    ///
    /// Making a scope takes the registry's lock; making IDs in it does not. Code that makes an
    /// ID per row resolves the scope once (a context keeps one per entity).
    struct Scope: Sendable, Hashable {
        /// The pair's index in ``ObjectIDRegistry``.
        let index: UInt32

        /// The scope of `entityName` in the store `storeIdentifier` (`""` for objects not yet
        /// in a context), interned on first use.
        init(entityName: String, storeIdentifier: String) {
            index = ObjectIDRegistry.shared.intern(entityName: entityName, storeIdentifier: storeIdentifier)
        }

        /// The saved object `key` of this scope.
        @inline(__always)
        func savedID(_ key: Int64) -> ObjectID {
            ObjectID(scope: self, key: key, isTemporary: false)
        }

        /// The entity name and store identifier (one registry lookup).
        var names: ObjectIDRegistry.Names { ObjectIDRegistry.shared.names(at: index) }
        /// The entity name.
        var entityName: String { names.entityName }
        /// The store identifier.
        var storeIdentifier: String { names.storeIdentifier }
    }
}
