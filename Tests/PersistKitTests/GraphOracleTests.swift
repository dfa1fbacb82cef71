import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A generated oracle for the object graph: random inserts, deletes (every rule), relinks,
/// reorders, rollbacks and saves. After every save a fresh container's view of the graph
/// equals the context's, every inverse pair agrees, and SQLite finds no dangling reference;
/// after every rollback the context shows the last saved graph again.
final class GraphOracleTests: XCTestCase {
    private let entityNames = ["GOwner", "GProject", "GTask", "GTag", "GPlan", "GStep", "GPerson", "GDesk"]

    func testRandomGraphOperationsMatchAFreshContainer() throws {
        let seed = testSeed("GraphOracleTests")
        let steps = testSize("GraphOracleTests", full: 1_500, ci: 500)
        var random = SeededGenerator(seed: seed)
        let directory = TemporaryDirectory()
        let url = directory.file("oracle.sqlite")
        let context = try makeGraphContainer(directory, url: url).newContext()
        var saved = try describe(context)
        var log: [String] = []
        for step in 0..<steps {
            let operation = try perform(&random, in: context)
            log.append(operation)
            if log.count > 12 { log.removeFirst() }
            let where_ = "seed \(seed) step \(step): " + log.joined(separator: "; ")
            try checkInverses(context, where_)
            let roll = Int.random(in: 0..<100, using: &random)
            if roll < 10 {
                do {
                    try context.save()
                } catch let error as PersistError where error.code == .validation {
                    log.append("save refused: \(error.message)")
                    context.rollback()
                    XCTAssertEqual(try describe(context), saved, "rollback after a refused save: \(where_)")
                    continue
                }
                saved = try describe(context)
                let fresh = try makeGraphContainer(directory, url: url).newContext()
                let stored = try describe(fresh)
                if stored != saved {
                    XCTFail("a fresh container sees another graph: \(where_)\n" + difference(saved, stored))
                    return
                }
                XCTAssertEqual(try foreignKeyProblems(url), [], where_)
            } else if roll < 14 {
                context.rollback()
                log.append("rollback")
                let now = try describe(context)
                if now != saved {
                    XCTFail("rollback does not restore the saved graph: \(where_)\n" + difference(saved, now))
                    return
                }
            }
        }
    }

    // MARK: Operations

    private func perform(_ random: inout SeededGenerator, in context: ManagedObjectContext) throws -> String {
        let owners = try context.fetch(FetchRequest<GOwner>()), projects = try context.fetch(FetchRequest<GProject>())
        let tasks = try context.fetch(FetchRequest<GTask>()), tags = try context.fetch(FetchRequest<GTag>())
        let plans = try context.fetch(FetchRequest<GPlan>()), stepsList = try context.fetch(FetchRequest<GStep>())
        let people = try context.fetch(FetchRequest<GPerson>()), desks = try context.fetch(FetchRequest<GDesk>())
        func pick<T>(_ objects: [T]) -> T? { objects.isEmpty ? nil : objects[Int.random(in: 0..<objects.count, using: &random)] }
        func name(_ object: ManagedObject?) -> String { object.map { "\($0.entity.name)#\($0.objectID.key)\($0.objectID.isTemporary ? "t" : "")" } ?? "nil" }
        let counter = Int.random(in: 0..<1_000_000, using: &random)
        switch Int.random(in: 0..<20, using: &random) {
        case 0:
            let owner = GOwner(context: context)
            owner.name = "o\(counter)"
            return "insert \(name(owner))"
        case 1:
            let project = GProject(context: context)
            project.name = "p\(counter)"
            project.owner = Bool.random(using: &random) ? pick(owners) : nil
            return "insert \(name(project)) owner \(name(project.owner))"
        case 2, 3:
            let task = GTask(context: context)
            task.title = "t\(counter)"
            task.project = pick(projects)
            if let tag = pick(tags) { task.tags = [tag] }
            return "insert \(name(task)) project \(name(task.project))"
        case 4:
            let tag = GTag(context: context)
            tag.label = "g\(counter)"
            return "insert \(name(tag))"
        case 5:
            let plan = GPlan(context: context)
            plan.title = "plan\(counter)"
            return "insert \(name(plan))"
        case 6:
            let step = GStep(context: context)
            step.text = "s\(counter)"
            if let plan = pick(plans) { plan.steps.insert(step, at: Int.random(in: 0...plan.steps.count, using: &random)) }
            return "insert \(name(step)) into \(name(step.plan))"
        case 7:
            let person = GPerson(context: context)
            person.name = "n\(counter)"
            return "insert \(name(person))"
        case 8:
            let desk = GDesk(context: context)
            desk.number = counter
            desk.person = pick(people)
            return "insert \(name(desk)) person \(name(desk.person))"
        case 9:
            guard let task = pick(tasks) else { return "nothing" }
            let project = Bool.random(using: &random) ? pick(projects) : nil
            task.project = project
            return "relink \(name(task)) to \(name(project))"
        case 10:
            guard let task = pick(tasks) else { return "nothing" }
            var chosen = Set<GTag>()
            for _ in 0..<Int.random(in: 0...3, using: &random) { if let tag = pick(tags) { chosen.insert(tag) } }
            task.tags = chosen
            return "tags of \(name(task)) = \(chosen.map { name($0) }.sorted())"
        case 11:
            guard let tag = pick(tags), let task = pick(tasks) else { return "nothing" }
            if tag.tasks.contains(task) { tag.tasks.remove(task) } else { tag.tasks.insert(task) }
            return "toggle \(name(task)) in \(name(tag)).tasks"
        case 12:
            guard let plan = pick(plans) else { return "nothing" }
            plan.steps = plan.steps.shuffled(using: &random).filter { _ in Int.random(in: 0..<5, using: &random) > 0 }
            return "reorder \(name(plan)) to \(plan.steps.map { name($0) })"
        case 13:
            guard let step = pick(stepsList) else { return "nothing" }
            step.plan = pick(plans)
            return "move \(name(step)) to \(name(step.plan))"
        case 14:
            guard let person = pick(people) else { return "nothing" }
            person.desk = Bool.random(using: &random) ? pick(desks) : nil
            return "desk of \(name(person)) = \(name(person.desk))"
        case 15:
            guard let project = pick(projects) else { return "nothing" }
            project.owner = pick(owners)
            project.rank = counter
            return "owner of \(name(project)) = \(name(project.owner))"
        default:
            let all: [ManagedObject] = owners + projects + tasks + tags + plans + stepsList + people + desks
            guard let victim = pick(all) else { return "nothing" }
            let described = name(victim)
            context.delete(victim)
            return "delete \(described)"
        }
    }

    // MARK: The graph as data

    /// Every object of every entity, by entity and primary key (unsaved ones by temporary
    /// key), with its attributes and the keys its relationships hold.
    private func describe(_ context: ManagedObjectContext) throws -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        for entityName in entityNames {
            var objects: [String: String] = [:]
            for object in try context.fetch(FetchRequest<ManagedObject>(entityName: entityName)) {
                objects[key(object)] = try fields(of: object)
            }
            result[entityName] = objects
        }
        return result
    }

    private func key(_ object: ManagedObject) -> String {
        (object.objectID.isTemporary ? "t" : "") + String(object.objectID.key)
    }

    private func fields(of object: ManagedObject) throws -> String {
        var parts: [String] = []
        for attribute in object.entity.attributes {
            parts.append("\(attribute.name)=\(String(describing: try object.value(forKey: attribute.name)))")
        }
        for relationship in object.entity.relationships {
            var keys = try object.relatedObjects(forKey: relationship.name).map(key)
            if relationship.kind != .orderedToMany { keys.sort() }
            parts.append("\(relationship.name)=[\(keys.joined(separator: ","))]")
        }
        return parts.joined(separator: " ")
    }

    private func difference(_ expected: [String: [String: String]], _ actual: [String: [String: String]]) -> String {
        var lines: [String] = []
        for entity in entityNames {
            let a = expected[entity] ?? [:], b = actual[entity] ?? [:]
            for key in Set(a.keys).union(b.keys).sorted() where a[key] != b[key] {
                lines.append("\(entity) \(key): expected \(a[key] ?? "absent"), found \(b[key] ?? "absent")")
            }
        }
        return lines.prefix(20).joined(separator: "\n")
    }

    /// Every relationship of every object points back through its inverse.
    private func checkInverses(_ context: ManagedObjectContext, _ where_: String) throws {
        for entityName in entityNames {
            for object in try context.fetch(FetchRequest<ManagedObject>(entityName: entityName)) {
                for relationship in object.entity.relationships {
                    guard let inverse = relationship.inverseName else { continue }
                    for target in try object.relatedObjects(forKey: relationship.name) {
                        let back = try target.relatedObjects(forKey: inverse)
                        if !back.contains(where: { $0 === object }) {
                            XCTFail("\(entityName).\(relationship.name) of \(key(object)) holds \(target.entity.name) \(key(target)), "
                                    + "whose \(inverse) does not hold it back: \(where_)")
                            return
                        }
                        // Only a denied deletion keeps its links until it is saved or rolled back.
                        XCTAssertFalse(target.isDeleted && target.entity.relationship(named: inverse)?.deleteRule != .deny,
                                       "a deleted object is still related: \(where_)")
                    }
                }
            }
        }
    }

    /// What `PRAGMA foreign_key_check` finds in the store: nothing, when every reference holds.
    private func foreignKeyProblems(_ url: URL) throws -> [String] {
        let connection = try SQLiteConnection(path: url.path, configuration: .init(synchronous: .full, busyTimeout: 5))
        let statement = try connection.prepare("PRAGMA foreign_key_check")
        var problems: [String] = []
        while try statement.step() { problems.append("\(statement.value(at: 0)) row \(statement.value(at: 1)) -> \(statement.value(at: 2))") }
        return problems
    }
}
