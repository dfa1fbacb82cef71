/// The saved objects of one entity a context holds, by primary key: a class, so that a fetch
/// looks the entity up once and registers each row through this reference.
final class EntityObjects {
    @exclusivity(unchecked) var byKey = IdentityMap()
}
