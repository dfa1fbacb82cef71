import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Random inserts, changes, deletions and saves over the `Animal` tree (`Dog`, `Puppy`,
/// `Cat`), checked after every step against an oracle: fetches of each entity with and without
/// sub-entities, with predicates, sorts and windows on the parent's attributes, in the working
/// context (pending changes judged in memory) and in a fresh one (SQL only); a controller over
/// `Cat` whose replayed diffs must equal a fresh fetch.
final class EntityInheritanceOracleTests: XCTestCase {
    private struct Expected {
        var entity: String
        var name: String
        var weight: Double
    }

    func testFetchesOfTheTreeMatchTheOracle() throws {
        let seed = testSeed("EntityInheritanceOracleTests")
        let steps = testSize("EntityInheritanceOracleTests", full: 300, ci: 100)
        var random = SeededGenerator(seed: seed)
        let directory = TemporaryDirectory()
        let container = try makeContainer(.sqlite, in: directory,
                                          entities: [Animal.self, Dog.self, Puppy.self, Cat.self, TestTask.self])
        let context = container.newContext()
        let cats = try ResultsHarness(FetchedResultsController(
            fetchRequest: FetchRequest<Cat>(predicate: \.weight < 60, sortBy: [FetchSortDescriptor(\.weight), FetchSortDescriptor(\.name)]),
            context: context))
        var live: [ObjectIdentifier: (object: Animal, expected: Expected)] = [:]
        var saved: [String: Expected] = [:]    // by name: what the store holds
        var counter = 0
        for step in 0..<steps {
            let what = "seed \(seed), step \(step)"
            switch Int.random(in: 0..<10, using: &random) {
            case 0...3:
                counter += 1
                let name = "a\(counter)"
                let weight = Double(Int.random(in: 0..<100, using: &random))
                let animal = insertRandomAnimal(named: name, weight: weight, into: context, using: &random)
                live[ObjectIdentifier(animal)] = (animal, Expected(entity: animal.objectID.entityName, name: name, weight: weight))
            case 4...5:
                guard let key = live.keys.sorted(by: { live[$0]!.expected.name < live[$1]!.expected.name }).randomElement(using: &random),
                      var entry = live[key] else { continue }
                entry.expected.weight = Double(Int.random(in: 0..<100, using: &random))
                entry.object.weight = entry.expected.weight
                live[key] = entry
            case 6:
                guard let key = live.keys.sorted(by: { live[$0]!.expected.name < live[$1]!.expected.name }).randomElement(using: &random),
                      let entry = live[key] else { continue }
                context.delete(entry.object)
                live[key] = nil
            case 7:
                context.rollback()
                live = [:]
                for animal in try context.fetch(FetchRequest<Animal>()) {
                    live[ObjectIdentifier(animal)] = (animal, Expected(entity: animal.objectID.entityName, name: animal.name,
                                                                      weight: animal.weight))
                }
                XCTAssertEqual(live.values.map { "\($0.expected.entity):\($0.expected.name):\($0.expected.weight)" }.sorted(),
                               saved.values.map { "\($0.entity):\($0.name):\($0.weight)" }.sorted(), "rolled back, \(what)")
            default:
                try context.save()
                saved = Dictionary(uniqueKeysWithValues: live.values.map { ($0.expected.name, $0.expected) })
            }
            try check(context, expected: live.values.map(\.expected), what: what, random: &random)
            try check(container.newContext(), expected: Array(saved.values), what: what + " (fresh context)", random: &random)
            context.processPendingChanges()
            XCTAssertEqual(cats.problems, [], what)
            let fresh = try context.fetch(FetchRequest<Cat>(predicate: \.weight < 60,
                                                            sortBy: [FetchSortDescriptor(\.weight), FetchSortDescriptor(\.name)]))
            XCTAssertEqual(cats.mirror.flatMap { $0 }, fresh.map(ObjectIdentifier.init), "the controller's diffs, \(what)")
            if testRun?.failureCount ?? 0 > 0 { return }
        }
    }

    /// One random request of each kind against the oracle.
    private func check(_ context: ManagedObjectContext, expected: [Expected], what: String,
                       random: inout SeededGenerator) throws {
        let bound = Double(Int.random(in: 0..<100, using: &random))
        let limit = Int.random(in: 0..<4, using: &random), offset = Int.random(in: 0..<3, using: &random)
        // An entity test too (the entity exactly): decided per entity, in SQL and in memory alike.
        let tested = ["Dog", "Puppy", "Cat", "Animal", "Horse"].randomElement(using: &random) ?? "Dog"
        let cases: [(entity: String, entities: Set<String>, includes: Bool)] = [
            ("Animal", ["Dog", "Puppy", "Cat"], true), ("Animal", [], false), ("Dog", ["Dog", "Puppy"], true),
            ("Dog", ["Dog"], false), ("Puppy", ["Puppy"], true), ("Cat", ["Cat"], false),
        ]
        for (entity, entities, includes) in cases {
            let description = try XCTUnwrap(context.model.entity(named: entity))
            var request = FetchRequest<ManagedObject>(entityName: entity,
                                                      predicate: try FetchPredicate(format: "weight < %@ OR entity == %@",
                                                                                    argumentArray: [bound, tested], entity: description),
                                                      sortBy: [FetchSortDescriptor(key: "weight", order: .reverse),
                                                               FetchSortDescriptor(key: "name")])
            request.includesSubentities = includes
            let matching = expected.filter { entities.contains($0.entity) && ($0.weight < bound || $0.entity == tested) }
                .sorted { ($0.weight, $1.name) > ($1.weight, $0.name) }
            let label = "\(entity)\(includes ? "" : " only") weight < \(bound) or entity \(tested), \(what)"
            XCTAssertEqual(try context.count(for: request), matching.count, label)
            request.fetchLimit = limit
            request.fetchOffset = offset
            let window = Array(matching.dropFirst(offset).prefix(limit == 0 ? Int.max : limit))
            let fetched = try context.fetch(request)
            XCTAssertEqual(fetched.map { "\($0.objectID.entityName):\(($0 as? Animal)?.name ?? "?")" },
                           window.map { "\($0.entity):\($0.name)" }, label)
            XCTAssertTrue(fetched.allSatisfy { type(of: $0).entityName == $0.objectID.entityName }, "each object is its entity's class, \(label)")
            XCTAssertEqual(try context.count(for: request), window.count, label)
        }
    }
}
