import Foundation
import PersistKitTestSupport
@testable import PersistKit

/// A small graph for relationship tests: owners own projects (cascade), projects hold tasks
/// (nullify), tasks carry tags (many-to-many), plans keep ordered steps, people have one desk.
final class GOwner: ManagedObject {
    @Attribute var name: String
    @Relationship(deleteRule: .cascade) var projects: Set<GProject>
}

final class GProject: ManagedObject {
    @Attribute(.unique) var name: String
    @Attribute var rank = 0
    @Relationship(inverse: \GOwner.projects) var owner: GOwner?
    @Relationship var tasks: Set<GTask>
}

final class GTask: ManagedObject {
    @Attribute var title: String
    @Attribute var done = false
    @Relationship(inverse: \GProject.tasks) var project: GProject?
    @Relationship(inverse: \GTag.tasks) var tags: Set<GTag>
}

final class GTag: ManagedObject {
    @Attribute var label: String
    @Relationship var tasks: Set<GTask>
}

final class GPlan: ManagedObject {
    @Attribute var title: String
    @Relationship(deleteRule: .cascade) var steps: [GStep]
}

final class GStep: ManagedObject {
    @Attribute var text: String
    @Relationship(inverse: \GPlan.steps) var plan: GPlan?
}

final class GPerson: ManagedObject {
    @Attribute var name: String
    @Relationship(inverse: \GDesk.person) var desk: GDesk?
}

final class GDesk: ManagedObject {
    @Attribute var number = 0
    @Relationship(deleteRule: .deny) var person: GPerson?
}

let graphEntities: [ManagedObject.Type] = [GOwner.self, GProject.self, GTask.self, GTag.self, GPlan.self, GStep.self,
                                           GPerson.self, GDesk.self]

/// A container on a fresh SQLite file (or in memory) for the graph entities.
func makeGraphContainer(_ directory: TemporaryDirectory, inMemory: Bool = false, url: URL? = nil) throws -> PersistentContainer {
    let model = try ManagedObjectModel(entities: graphEntities)
    if inMemory { return try PersistentContainer(model: model, store: .inMemory) }
    return try PersistentContainer(model: model, store: .sqlite(url ?? directory.file("graph.sqlite")))
}

/// Saves a project "Home" with tasks "a" and "b" ("a" tagged "urgent"), and a plan "trip" with
/// steps "pack" and "go", through a context of its own.
func saveHomeGraph(in container: PersistentContainer) throws {
    let writer = container.newContext()
    let project = GProject(context: writer)
    project.name = "Home"
    let tag = GTag(context: writer)
    tag.label = "urgent"
    for title in ["a", "b"] {
        let task = GTask(context: writer)
        task.title = title
        task.project = project
        if title == "a" { task.tags = [tag] }
    }
    let plan = GPlan(context: writer)
    plan.title = "trip"
    plan.steps = ["pack", "go"].map { text in
        let step = GStep(context: writer)
        step.text = text
        return step
    }
    try writer.save()
}
