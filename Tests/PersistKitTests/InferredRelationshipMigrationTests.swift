import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Inferred stages for relationships: foreign-key columns, position columns and join tables
/// added, removed and renamed, with every link kept that the new model still has.
final class InferredRelationshipMigrationTests: XCTestCase {
    private typealias Base = MigrationBase

    private func projectOfEachTask(_ container: PersistentContainer, key: String = "project") throws -> [String?] {
        let context = container.newContext()   // held: objects read relationships through their context
        return try context.fetch(FetchRequest<ManagedObject>(entityName: "Task")).sorted { $0.objectID.key < $1.objectID.key }
            .map { try $0.relatedObjects(forKey: key).first.flatMap { try $0.value(forKey: "name") as? String } }
    }

    func testAddedRelationshipsStartEmptyAndWork() throws {
        let directory = TemporaryDirectory()
        let container = try Base.migrate(to: [
            Base.project(relationships: [relationship("tasks", to: "Task", toMany: true, inverse: "project"),
                                         relationship("members", to: "Person", toMany: true, inverse: "projects")]),
            Base.task(relationships: Base.taskRelationships + [relationship("assignee", to: "Person", inverse: "tasks")]),
            Base.tag(),
            entity("Person", [attribute("name", "string")], relationships: [
                relationship("tasks", to: "Task", toMany: true, inverse: "assignee"),
                relationship("projects", to: "Project", toMany: true, inverse: "members"),
            ]),
        ], in: directory)
        XCTAssertEqual(try rows(container, "SELECT assignee FROM Task").map { $0[0] }, Array(repeating: .null, count: 4))
        XCTAssertEqual(try projectOfEachTask(container), ["Home", "Work", "Home", nil], "the old links stay")
        let context = container.newContext()
        let ada = try insert("Person", ["name": "Ada"], into: context)
        let tasks = try context.fetch(FetchRequest<ManagedObject>(entityName: "Task"))
        try tasks[0].setRelatedObjects([ada], forKey: "assignee")
        try ada.setRelatedObjects(try context.fetch(FetchRequest<ManagedObject>(entityName: "Project")), forKey: "projects")
        try context.save()
        let reader = container.newContext()
        let again = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Person"))
        XCTAssertEqual(try again.first?.relatedObjects(forKey: "tasks").count, 1)
        XCTAssertEqual(try again.first?.relatedObjects(forKey: "projects").count, 2)
    }

    /// A to-one removed takes its foreign-key column away (the table is copied: SQLite cannot
    /// drop a column a foreign key names); every other value and link stays.
    func testRemovedToOneDropsItsColumn() throws {
        let directory = TemporaryDirectory()
        let container = try Base.migrate(to: [
            Base.project(relationships: []), Base.task(relationships: [Base.taskRelationships[1]]), Base.tag(),
        ], in: directory)
        XCTAssertEqual(try rows(container, "SELECT _pk, title, notes, done, rank FROM Task ORDER BY _pk").map { $0.map(\.description) }, [
            ["1", "'Buy milk'", "'2 litres'", "0", "3"], ["2", "'Call Ada'", "'about ''tea'''", "1", "-2"],
            ["3", "'File taxes'", "NULL", "0", "7"], ["4", "'Walk'", "NULL", "1", "NULL"],
        ])
        XCTAssertEqual(try Base.links(container, "_persistkit_join_Tag_tasks"), ["1-1", "2-1", "2-2"])
        XCTAssertEqual(try rows(container, "SELECT _version FROM Task ORDER BY _pk").count, 4)
    }

    func testRemovedManyToManyDropsItsJoinTable() throws {
        let directory = TemporaryDirectory()
        let container = try Base.migrate(to: [Base.project(), Base.task(relationships: [Base.taskRelationships[0]]),
                                              Base.tag(relationships: [])], in: directory)
        XCTAssertEqual(try rows(container, "SELECT count(*) FROM sqlite_master WHERE name LIKE '_persistkit_join_%'"), [[.integer(0)]])
        XCTAssertEqual(try rows(container, "SELECT label FROM Tag ORDER BY _pk").map { "\($0[0])" }, ["'red'", "'green'", "'blue'"])
    }

    func testRenamedToOneKeepsItsLinks() throws {
        let directory = TemporaryDirectory()
        let container = try Base.migrate(to: [
            Base.project(relationships: [relationship("tasks", to: "Task", toMany: true, inverse: "folder")]),
            Base.task(relationships: [relationship("folder", to: "Project", inverse: "tasks", originalName: "project"),
                                      Base.taskRelationships[1]]),
            Base.tag(),
        ], in: directory)
        XCTAssertEqual(try projectOfEachTask(container, key: "folder"), ["Home", "Work", "Home", nil])
    }

    /// The owning side of a many-to-many renamed: its join table is renamed with it.
    func testRenamedManyToManyKeepsItsLinks() throws {
        let directory = TemporaryDirectory()
        let container = try Base.migrate(to: [
            Base.project(),
            Base.task(relationships: [Base.taskRelationships[0], relationship("tags", to: "Tag", toMany: true, inverse: "items")]),
            Base.tag(relationships: [relationship("items", to: "Task", toMany: true, inverse: "tags", originalName: "tasks")]),
        ], in: directory)
        XCTAssertEqual(try Base.links(container, "_persistkit_join_Tag_items"), ["1-1", "2-1", "2-2"])
    }

    /// An entity renamed so that the other side of a many-to-many owns its table now: the
    /// links are copied with their ends traded, none lost.
    func testManyToManyChangingOwnerKeepsItsLinks() throws {
        let directory = TemporaryDirectory()
        let container = try Base.migrate(to: [
            Base.project(),
            Base.task(relationships: [Base.taskRelationships[0], relationship("tags", to: "Topic", toMany: true, inverse: "tasks")]),
            Base.tag(name: "Topic", originalName: "Tag"),
        ], in: directory)
        XCTAssertEqual(try Base.links(container, "_persistkit_join_Task_tags"), ["1-1", "1-2", "2-2"], "task-topic pairs")
        let reader = container.newContext()
        let task = try XCTUnwrap(reader.fetch(FetchRequest<ManagedObject>(entityName: "Task")).first)
        XCTAssertEqual(try task.relatedObjects(forKey: "tags").map { try $0.value(forKey: "label") as? String }.sorted { ($0 ?? "") < ($1 ?? "") },
                       ["green", "red"])
    }

    /// An entity renamed takes the join tables it owns along (renamed with it, links kept).
    func testRenamedEntityRenamesItsJoinTables() throws {
        let directory = TemporaryDirectory()
        let container = try Base.migrate(to: [
            Base.project(),
            Base.task(relationships: [Base.taskRelationships[0], relationship("tags", to: "Label", toMany: true, inverse: "tasks")]),
            Base.tag(name: "Label", originalName: "Tag"),
        ], in: directory)
        XCTAssertEqual(try Base.links(container, "_persistkit_join_Label_tasks"), ["1-1", "2-1", "2-2"])
    }

    /// A table that refers to itself (a node's parent), copied: every link is kept.
    func testSelfReferencingTableCopiedKeepsItsLinks() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("tree.sqlite")
        func model(_ version: Int, nameOptional: Bool) throws -> ManagedObjectModel {
            try documentModel(version, [entity("Node", [attribute("name", "string", optional: nameOptional,
                                                                  default: nameOptional ? nil : ["text": "?"])],
                relationships: [relationship("parent", to: "Node", inverse: "children"),
                                relationship("children", to: "Node", toMany: true, inverse: "parent")])])
        }
        try writeStore(at: url, model: model(1, nameOptional: true)) { context in
            let root = try insert("Node", ["name": "root"], into: context)
            let child = try insert("Node", [:], into: context)
            try child.setRelatedObjects([root], forKey: "parent")
            let leaf = try insert("Node", ["name": "leaf"], into: context)
            try leaf.setRelatedObjects([child], forKey: "parent")
        }
        let container = try openMigrating(url, to: model(2, nameOptional: false), from: [model(1, nameOptional: true)])
        try assertSchemaMatchesFreshStore(container)
        XCTAssertEqual(try rows(container, "SELECT _pk, name, parent FROM Node ORDER BY _pk").map { $0.map(\.description) },
                       [["1", "'root'", "NULL"], ["2", "'?'", "1"], ["3", "'leaf'", "2"]])
    }

    /// Ordered to-manys keep their order: through a position column (inverse to-one) and
    /// through a join table's positions, across renames of either side.
    func testOrderedRelationshipsKeepTheirOrder() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("ordered.sqlite")
        let version1 = try documentModel(1, [
            entity("List", [attribute("name", "string")], relationships: [relationship("items", to: "Item", toMany: true, ordered: true, inverse: "list")]),
            entity("Item", [attribute("name", "string")], relationships: [relationship("list", to: "List", inverse: "items")]),
            entity("Playlist", [attribute("name", "string")],
                   relationships: [relationship("songs", to: "Song", toMany: true, ordered: true, inverse: "playlists")]),
            entity("Song", [attribute("name", "string")],
                   relationships: [relationship("playlists", to: "Playlist", toMany: true, inverse: "songs")]),
        ])
        try writeStore(at: url, model: version1) { context in
            let list = try insert("List", ["name": "groceries"], into: context)
            let items = try ["c", "a", "b"].map { try insert("Item", ["name": $0], into: context) }
            try list.setRelatedObjects(items, forKey: "items")
            let playlist = try insert("Playlist", ["name": "mix"], into: context)
            let songs = try ["z", "x", "y"].map { try insert("Song", ["name": $0], into: context) }
            try playlist.setRelatedObjects(songs, forKey: "songs")
        }
        let version2 = try documentModel(2, [
            entity("List", [attribute("name", "string")], relationships: [relationship("items", to: "Item", toMany: true, ordered: true, inverse: "owner")]),
            entity("Item", [attribute("name", "string")], relationships: [relationship("owner", to: "List", inverse: "items", originalName: "list")]),
            entity("Mix", [attribute("name", "string")],
                   relationships: [relationship("tracks", to: "Song", toMany: true, ordered: true, inverse: "mixes", originalName: "songs")],
                   originalName: "Playlist"),
            entity("Song", [attribute("name", "string")],
                   relationships: [relationship("mixes", to: "Mix", toMany: true, inverse: "tracks", originalName: "playlists")]),
        ])
        let container = try openMigrating(url, to: version2, from: [version1])
        try assertSchemaMatchesFreshStore(container)
        let context = container.newContext()
        let list = try XCTUnwrap(context.fetch(FetchRequest<ManagedObject>(entityName: "List")).first)
        XCTAssertEqual(try list.relatedObjects(forKey: "items").map { try $0.value(forKey: "name") as? String }, ["c", "a", "b"])
        let mix = try XCTUnwrap(context.fetch(FetchRequest<ManagedObject>(entityName: "Mix")).first)
        XCTAssertEqual(try mix.relatedObjects(forKey: "tracks").map { try $0.value(forKey: "name") as? String }, ["z", "x", "y"])
    }

    func testRelationshipChangingKindIsRefused() throws {
        let version2 = try documentModel(2, [
            Base.project(), Base.task(relationships: [Base.taskRelationships[0],
                                                      relationship("tags", to: "Tag", toMany: true, ordered: true, inverse: "tasks")]),
            Base.tag(),
        ])
        let error = expectPersistError(try MigrationPlan(models: [Base.version1()]).check(upTo: version2), [.incompatibleModel])
        XCTAssertEqual(error?.attribute, "tags")
        XCTAssertTrue(error?.message.contains("from a toMany to a orderedToMany") ?? false, error?.message ?? "")
    }

    func testRelationshipChangingDestinationIsRefused() throws {
        let version2 = try documentModel(2, [
            Base.project(relationships: []),
            Base.task(relationships: [relationship("project", to: "Tag", inverse: "owners"), Base.taskRelationships[1]]),
            Base.tag(relationships: [relationship("tasks", to: "Task", toMany: true, inverse: "tags"),
                                     relationship("owners", to: "Task", toMany: true, inverse: "project")]),
        ])
        let error = expectPersistError(try MigrationPlan(models: [Base.version1()]).check(upTo: version2), [.incompatibleModel])
        XCTAssertEqual(error?.attribute, "project")
        XCTAssertTrue(error?.message.contains("points at Tag now") ?? false, error?.message ?? "")
    }

    /// A to-many whose inverse to-one goes away would move from a foreign key to a join table:
    /// refused, rather than losing the links.
    func testRelationshipChangingStorageIsRefused() throws {
        let version2 = try documentModel(2, [
            Base.project(relationships: [relationship("tasks", to: "Task", toMany: true, inverse: nil)]),
            Base.task(relationships: [Base.taskRelationships[1]]), Base.tag(),
        ])
        let error = expectPersistError(try MigrationPlan(models: [Base.version1()]).check(upTo: version2), [.incompatibleModel])
        XCTAssertEqual(error?.entity, "Project")
        XCTAssertTrue(error?.message.contains("changes how it is stored") ?? false, error?.message ?? "")
    }
}
