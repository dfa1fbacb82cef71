import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Predicates through relationships, each form checked three ways: SQL (a fresh context, so
/// the store answers), the in-memory evaluator, and the expected answer written out by hand
/// from the table in ``PredicateGraphFixture``.
final class RelationshipPredicateTests: XCTestCase {
    static let home = ["Buy milk", "Call mom", "Fix roof"]
    static let work = ["Write report", "Plan trip"]
    static let all = home + work + ["Weed beds", "Loose end"]

    func testKeyPathsThroughToOnes() throws {
        let fixture = try PredicateGraphFixture()
        fixture.check("project.name == %@", ["Home"], Self.home)
        fixture.check("project.name == nil", ["Weed beds", "Loose end"])
        fixture.check("project.name != %@", ["Home"], Self.work + ["Weed beds", "Loose end"])
        fixture.check("project.name != nil", Self.home + Self.work)
        fixture.check("project.rank > 1", Self.work + ["Weed beds"])
        fixture.check("NOT project.rank > 1", Self.home + ["Loose end"])
        fixture.check("project.budget < 5", ["Weed beds"])
        fixture.check("project.name IN %@", [["Work", "Empty"]], Self.work)
        fixture.check("project.name IN {'Work', nil}", Self.work + ["Weed beds", "Loose end"])
        fixture.check("project.name BEGINSWITH[c] 'ho' OR project.name ENDSWITH 'rk'", Self.home + Self.work)
        fixture.check("project.name MATCHES 'W.*'", Self.work)
        fixture.check("project.rank BETWEEN {2, 3}", Self.work + ["Weed beds"])
        fixture.check("project.owner.name BEGINSWITH[cd] %@", ["an"], Self.home)
        fixture.check("project.owner.name == nil", ["Weed beds", "Loose end"])
        fixture.check("project.owner.name != 'Ann'", Self.work + ["Weed beds", "Loose end"])
        fixture.check("blocker.title BEGINSWITH 'Buy'", ["Write report"])
        fixture.check("blocker.project.name == nil", Self.all.filter { $0 != "Write report" })
        fixture.check("blocker.blocker.title == 'x'", [])
        fixture.check("project.name == 'Home' AND rank >= 2", ["Call mom"])
    }

    func testRelatedObjects() throws {
        let fixture = try PredicateGraphFixture()
        let home = try XCTUnwrap(fixture.projects["Home"]), work = try XCTUnwrap(fixture.projects["Work"])
        let unnamed = try XCTUnwrap(fixture.projects["Unnamed"])
        fixture.check("project == %@", [home], Self.home)
        fixture.check("project == %@", [work.objectID], Self.work)
        fixture.check("%@ == project", [work], Self.work)
        fixture.check("project == nil", ["Loose end"])
        fixture.check("project != nil", Self.home + Self.work + ["Weed beds"])
        fixture.check("project != %@", [home], Self.work + ["Weed beds", "Loose end"])
        fixture.check("project IN %@", [[work, unnamed]], Self.work + ["Weed beds"])
        fixture.check("NOT project IN %@", [[work, unnamed]], Self.home + ["Loose end"])
        fixture.check("project.owner == %@", [try XCTUnwrap(fixture.owners["Ann"])], Self.home)
        fixture.check("blocker == %@", [try XCTUnwrap(fixture.tasks["Weed beds"])], ["Loose end"])
    }

    func testToManys() throws {
        let fixture = try PredicateGraphFixture()
        fixture.check("ANY tags.name == 'urgent'", ["Buy milk", "Call mom", "Weed beds"])
        fixture.check("SOME tags.name == 'urgent'", ["Buy milk", "Call mom", "Weed beds"])
        fixture.check("ALL tags.name == 'urgent'", ["Buy milk", "Fix roof", "Loose end"])
        fixture.check("NONE tags.name == 'urgent'", ["Fix roof", "Write report", "Plan trip", "Loose end"])
        fixture.check("NOT ANY tags.name == 'urgent'", ["Fix roof", "Write report", "Plan trip", "Loose end"])
        fixture.check("ANY tags.weight == nil", ["Call mom", "Plan trip"])
        fixture.check("ANY tags.name IN {'later', 'xray'}", ["Call mom", "Write report", "Plan trip", "Weed beds"])
        fixture.check("tags.@count > 1", ["Call mom", "Weed beds"])
        fixture.check("tags.@count == 0", ["Fix roof", "Loose end"])
        fixture.check("tags.@count BETWEEN {1, 1}", ["Buy milk", "Write report", "Plan trip"])
        fixture.check("tags.@count IN {0, 2}", ["Call mom", "Weed beds", "Fix roof", "Loose end"])
        fixture.check("3 > tags.@count", Self.all)
        fixture.check("ANY watchers.name == 'Bob'", ["Weed beds"])
        fixture.check("watchers.@count == 2", ["Weed beds"])
        fixture.check("ANY project.tasks.title == 'Plan trip'", Self.work)
        fixture.check("project.tasks.@count == 3", Self.home)
        fixture.check("project.tasks.@count < 2", ["Weed beds", "Loose end"])
        fixture.check("ANY tags.tasks.project.name == 'Work'", ["Call mom", "Write report", "Plan trip", "Weed beds"])
    }

    func testAggregates() throws {
        let fixture = try PredicateGraphFixture()
        fixture.check("project.tasks.@sum.rank > 4", Self.work)
        fixture.check("project.tasks.@sum.rank == 0", ["Weed beds", "Loose end"])
        fixture.check("tags.@sum.weight >= 3", ["Buy milk", "Call mom", "Weed beds"])
        fixture.check("tags.@sum.weight == 0", ["Fix roof", "Plan trip", "Loose end"])
        fixture.check("tags.@avg.weight == 2", ["Weed beds"])
        fixture.check("tags.@avg.weight == nil", ["Fix roof", "Plan trip", "Loose end"])
        fixture.check("tags.@avg.weight != 3", Self.all.filter { !["Buy milk", "Call mom"].contains($0) })
        fixture.check("tags.@min.weight == 1", ["Write report", "Weed beds"])
        fixture.check("tags.@max.name == 'xray'", ["Write report", "Weed beds"])
        fixture.check("tags.@max.weight == nil", ["Fix roof", "Plan trip", "Loose end"])
    }

    func testSubqueries() throws {
        let fixture = try PredicateGraphFixture()
        fixture.check("SUBQUERY(tags, $t, $t.name BEGINSWITH 'l').@count > 0", ["Call mom", "Plan trip"])
        fixture.check("SUBQUERY(tags, $t, $t.weight > 0).@count == 0", ["Fix roof", "Plan trip", "Loose end"])
        fixture.check("SUBQUERY(tags, $tag, $tag.weight > 0 AND NOT $tag.name == 'xray').@count == 1", ["Buy milk", "Call mom", "Weed beds"])
        fixture.check("SUBQUERY(tags, $t, $t IN %@).@count == 2", [[try XCTUnwrap(fixture.tags["urgent"]), try XCTUnwrap(fixture.tags["xray"])]],
                      ["Weed beds"])
        fixture.check("SUBQUERY(tags, $t, SUBQUERY($t.tasks, $u, $u.rank > 4).@count > 0).@count > 0", ["Write report", "Weed beds"])
        fixture.check("SUBQUERY(project.tasks, $t, $t.rank == nil).@count >= 1", Self.home + ["Weed beds"])
        fixture.check("SUBQUERY(tags, $t, ANY $t.tasks.title == 'Plan trip').@count > 0", ["Call mom", "Plan trip"])
    }

    func testObjectsInToManys() throws {
        let fixture = try PredicateGraphFixture()
        let later = try XCTUnwrap(fixture.tags["later"]), xray = try XCTUnwrap(fixture.tags["xray"])
        fixture.check("ANY tags IN %@", [[later, xray]], ["Call mom", "Write report", "Plan trip", "Weed beds"])
        fixture.check("ANY tags == %@", [xray], ["Write report", "Weed beds"])
        fixture.check("tags CONTAINS %@", [xray], ["Write report", "Weed beds"])
        fixture.check("%@ IN tags", [later.objectID], ["Call mom", "Plan trip"])
        fixture.check("NONE tags IN %@", [[later, xray]], ["Buy milk", "Fix roof", "Loose end"])
    }

    func testTypedForms() throws {
        let fixture = try PredicateGraphFixture()
        let home = try XCTUnwrap(fixture.projects["Home"]), work = try XCTUnwrap(fixture.projects["Work"])
        let unnamed = try XCTUnwrap(fixture.projects["Unnamed"]), xray = try XCTUnwrap(fixture.tags["xray"])
        fixture.check(\RPTask.project?.name == "Home", Self.home)
        fixture.check(\RPTask.project?.name == nil, ["Weed beds", "Loose end"])
        fixture.check(\RPTask.project?.owner?.name == "Ann", Self.home)
        fixture.check(\RPTask.project?.rank >= 2, Self.work + ["Weed beds"])
        fixture.check(.beginsWith(\RPTask.project?.name, "Wo"), Self.work)
        fixture.check(\RPTask.project == home, Self.home)
        fixture.check(\RPTask.project == nil, ["Loose end"])
        fixture.check(\RPTask.project != nil, Self.home + Self.work + ["Weed beds"])
        fixture.check(.in(\RPTask.project, [work, unnamed]), Self.work + ["Weed beds"])
        fixture.check(.any(\RPTask.tags, \.name == "urgent"), ["Buy milk", "Call mom", "Weed beds"])
        fixture.check(.all(\RPTask.tags, \.name == "urgent"), ["Buy milk", "Fix roof", "Loose end"])
        fixture.check(.none(\RPTask.tags, \.name == "urgent"), ["Fix roof", "Write report", "Plan trip", "Loose end"])
        fixture.check(.contains(\RPTask.tags, xray), ["Write report", "Weed beds"])
        fixture.check(\RPTask.tags.count > 1, ["Call mom", "Weed beds"])
        fixture.check(FetchPredicate<RPTask>.count(\.tags) == 0, ["Fix roof", "Loose end"])
        fixture.check(FetchPredicate<RPTask>.count(\.tags, where: \.name == "later") > 0, ["Call mom", "Plan trip"])
        fixture.check(FetchPredicate<RPTask>.sum(\.tags, \.weight) >= 3, ["Buy milk", "Call mom", "Weed beds"])
        fixture.check(FetchPredicate<RPTask>.average(\.tags, \.weight) == 2, ["Weed beds"])
        fixture.check(FetchPredicate<RPTask>.minimum(\.tags, \.weight) == 1, ["Write report", "Weed beds"])
        fixture.check(FetchPredicate<RPTask>.maximum(\.tags, \.name) == "xray", ["Write report", "Weed beds"])
        fixture.check(.any(\RPTask.tags, .any(\RPTag.tasks, \.rank > 4)), ["Write report", "Weed beds"])
        fixture.check(\RPTask.project?.name == "Home" && .any(\RPTask.tags, \.name == "later"), ["Call mom"])
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func testFoundationPredicates() throws {
        let fixture = try PredicateGraphFixture()
        fixture.check(FetchPredicate(#Predicate<RPTask> { $0.project?.name == "Home" }), Self.home)
        fixture.check(FetchPredicate(#Predicate<RPTask> { $0.project?.name != "Home" }), Self.work + ["Weed beds", "Loose end"])
        fixture.check(FetchPredicate(#Predicate<RPTask> { $0.project?.owner?.name == "Ann" }), Self.home)
        fixture.check(FetchPredicate(#Predicate<RPTask> { $0.project == nil }), ["Loose end"])
        fixture.check(FetchPredicate(#Predicate<RPTask> { $0.project != nil && $0.project!.rank > 1 }), Self.work + ["Weed beds"])
        fixture.check(FetchPredicate(#Predicate<RPTask> { ($0.project?.rank ?? 0) < 2 }), Self.home + ["Loose end"])
        fixture.check(FetchPredicate(#Predicate<RPTask> { $0.tags.contains { $0.name == "urgent" } }), ["Buy milk", "Call mom", "Weed beds"])
        fixture.check(FetchPredicate(#Predicate<RPTask> { $0.tags.allSatisfy { $0.name == "urgent" } }), ["Buy milk", "Fix roof", "Loose end"])
        fixture.check(FetchPredicate(#Predicate<RPTask> { !$0.tags.contains { $0.weight == nil } }),
                      ["Buy milk", "Fix roof", "Write report", "Weed beds", "Loose end"])
        fixture.check(FetchPredicate(#Predicate<RPTask> { $0.tags.count > 1 }), ["Call mom", "Weed beds"])
        fixture.check(FetchPredicate(#Predicate<RPTask> { $0.tags.isEmpty }), ["Fix roof", "Loose end"])
        fixture.check(FetchPredicate(#Predicate<RPTask> { $0.project?.tasks.contains { $0.title == "Plan trip" } == true }), Self.work)
        fixture.check(FetchPredicate(#Predicate<RPTask> { $0.tags.contains { tag in tag.tasks.contains { $0.rank ?? 0 > 4 } } }),
                      ["Write report", "Weed beds"])
    }

    func testSubstitutionVariablesThroughRelationships() throws {
        let fixture = try PredicateGraphFixture()
        let work = try XCTUnwrap(fixture.projects["Work"])
        let template = try FetchPredicate<RPTask>(format: "project.name == $NAME OR ANY tags.name == $TAG OR project == $PROJECT")
        fixture.check(try template.withSubstitutionVariables(["NAME": "Home", "TAG": "xray", "PROJECT": work]),
                      Self.home + Self.work + ["Weed beds"])
        fixture.check(try template.withSubstitutionVariables(["NAME": "Nowhere", "TAG": "later", "PROJECT": NSNull()]),
                      ["Call mom", "Plan trip", "Loose end"])
        let inner = try FetchPredicate<RPTask>(format: "SUBQUERY(tags, $t, $t.weight > $W).@count > 0")
        fixture.check(try inner.withSubstitutionVariables(["W": 2]), ["Buy milk", "Call mom", "Weed beds"])
        expectError(try template.withSubstitutionVariables(["NAME": 1, "TAG": "x", "PROJECT": "not an object"]), .invalidPredicate)
    }

    /// Models loaded from a model document (plain `ManagedObject`s) follow relationships by name.
    func testModelsLoadedFromADocument() throws {
        let fixture = try PredicateGraphFixture()
        let model = try ManagedObjectModel(document: fixture.container.model.document)
        let context = try PersistentContainer(model: model, store: .sqlite(fixture.directory.file("fixture.sqlite"))).newContext()
        let entity = try XCTUnwrap(model.entity(named: "RPTask"))
        func titles(_ format: String, sortedBy key: String = "title") throws -> [String] {
            let predicate = try FetchPredicate<ManagedObject>(format: format, entity: entity)
            let request = FetchRequest<ManagedObject>(entityName: "RPTask", predicate: predicate, sortBy: [FetchSortDescriptor(key: key)])
            return try context.fetch(request).compactMap { try $0.value(forKey: "title") as? String }
        }
        XCTAssertEqual(try titles("project.owner.name == 'Ann'"), Self.home.sorted())
        XCTAssertEqual(try titles("ANY tags.name == 'xray'"), ["Weed beds", "Write report"])
        XCTAssertEqual(try titles("tags.@count == 0"), ["Fix roof", "Loose end"])
        XCTAssertEqual(try titles("project != nil", sortedBy: "project.rank").count, 6)
    }

    /// `project.name == x` over 100,000 tasks is a lookup of the matching projects, then of their
    /// tasks through the foreign-key index: never a scan of projects per task.
    func testKeyPathThroughAToOneUsesTheForeignKeyIndex() throws {
        let fixture = try PredicateGraphFixture()
        let query = try StoreQuery(entity: try XCTUnwrap(fixture.container.model.entity(named: "RPTask")),
                                   predicate: try FetchPredicate<RPTask>(format: "project.name == 'Home'").node, sorts: [])
        let plan = try fixture.context.store.withConnection { connection -> [String] in
            let statement = try connection.prepare("EXPLAIN QUERY PLAN " + query.selectSQL(limit: 0, offset: 0))
            try statement.bind(query.bindings)
            var details: [String] = []
            while try statement.step() { details.append(statement.string(at: 3)) }
            return details
        }
        XCTAssertTrue(plan.contains { $0.contains("USING INDEX _persistkit_fk_RPTask_project") }, "\(plan)")
        XCTAssertFalse(plan.contains { $0.hasPrefix("CORRELATED") }, "\(plan)")
    }
}
