import Foundation
import PersistKitTestSupport
@testable import PersistKit

/// The graph the relationship predicate tests query: owners own projects, projects hold tasks
/// (a to-many whose inverse is a to-one), tasks carry tags (many-to-many), a task may wait on
/// another task (a one-way to-one to its own entity) and be watched by owners (a one-way
/// to-many, in a join table). Optional attributes everywhere, so nil takes part.
final class RPOwner: ManagedObject {
    @Attribute var name: String?
    @Relationship var projects: Set<RPProject>
}

final class RPProject: ManagedObject {
    @Attribute var name: String?
    @Attribute var rank = 0
    @Attribute var budget: Double?
    @Relationship(inverse: \RPOwner.projects) var owner: RPOwner?
    @Relationship var tasks: Set<RPTask>
}

final class RPTask: ManagedObject {
    @Attribute var title = ""
    @Attribute var rank: Int?
    @Attribute var done = false
    @Relationship(inverse: \RPProject.tasks) var project: RPProject?
    @Relationship(inverse: \RPTag.tasks) var tags: Set<RPTag>
    @Relationship(inverse: .none) var blocker: RPTask?
    @Relationship(inverse: .none) var watchers: Set<RPOwner>
}

final class RPTag: ManagedObject {
    @Attribute var name = ""
    @Attribute var weight: Int?
    @Relationship var tasks: Set<RPTask>
}

let predicateGraphEntities: [ManagedObject.Type] = [RPOwner.self, RPProject.self, RPTask.self, RPTag.self]

/// A context on a fresh SQLite store for the predicate graph.
func makePredicateGraphContext(_ directory: TemporaryDirectory, name: String = "graph.sqlite") throws -> ManagedObjectContext {
    let model = try ManagedObjectModel(entities: predicateGraphEntities)
    return try PersistentContainer(model: model, store: .sqlite(directory.file(name))).newContext()
}
