import PersistKit

/// A project whose tasks keep their reference when it is deleted (`.noAction`): the store
/// clears it.
final class NAProject: ManagedObject {
    @Attribute var name: String
    @Relationship(deleteRule: .noAction) var tasks: Set<NATask>
}

final class NATask: ManagedObject {
    @Attribute var title: String
    @Relationship(inverse: \NAProject.tasks) var project: NAProject?
    /// One way: no inverse, so no delete rule clears it.
    @Relationship(inverse: .none) var reviewer: NAProject?
}
