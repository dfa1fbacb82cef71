extension PredicateKey {
    /// A value a predicate or sort reads through relationships: the relationships it follows
    /// from the request's entity, and the key it reads on the last one's objects.
    ///
    /// `project.owner.name` follows project, owner and reads name; `ANY tags.label == "x"`
    /// follows tags and reads label. A read of related objects themselves (`project == %@`,
    /// `tags.@count`, `SUBQUERY(tags, $t, $t IN %@)`) reads ``PredicateKey/selfKey``: only
    /// their insertion or deletion changes it (their links are read one hop earlier).
    struct RelatedRead: Sendable {
        /// The relationships followed, from the request's entity (at least one).
        let hops: [Hop]
        /// The attribute or to-one read on the last hop's destination, or ``PredicateKey/selfKey``.
        let key: String
    }
}
