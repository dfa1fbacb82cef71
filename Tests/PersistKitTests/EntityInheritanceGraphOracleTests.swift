import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Random inserts, changes, deletions (with `Keeper.pets`' cascade), links and unlinks of
/// `Keeper`s' relationships into the `Animal` tree, saves and rollbacks, checked after every
/// step against an oracle of the graph: the working context's objects (each related object of
/// its row's class), a fresh context's after each save, and predicates through the
/// relationships fetched (SQL with pending changes judged in memory) against every object
/// evaluated in memory.
final class EntityInheritanceGraphOracleTests: XCTestCase {
    /// The graph by names: each keeper's favorite, pets and queue; each animal's class.
    private struct Graph: Equatable {
        var animals: [String: String] = [:]
        var favorite: [String: String] = [:]
        var pets: [String: Set<String>] = [:]
        var queue: [String: [String]] = [:]

        mutating func removeAnimal(_ name: String) {
            animals[name] = nil
            for keeper in favorite.keys where favorite[keeper] == name { favorite[keeper] = nil }
            for keeper in pets.keys { pets[keeper]?.remove(name) }
            for keeper in queue.keys { queue[keeper]?.removeAll { $0 == name } }
        }
    }

    private let formats = ["favorite.weight < 50", "favorite.name BEGINSWITH 'a1'", "ANY pets.weight > 70", "pets.@count >= 2",
                           "SUBQUERY(queue, $d, $d.weight < 30).@count > 0", "queue.@count == 0", "favorite == nil",
                           "ALL pets.weight < 60", "pets.@max.weight > 50"]

    func testGraphsIntoATreeMatchTheOracle() throws {
        let seed = testSeed("EntityInheritanceGraphOracleTests")
        let steps = testSize("EntityInheritanceGraphOracleTests", full: 400, ci: 120)
        print("EntityInheritanceGraphOracleTests: seed \(seed), \(steps) steps")
        var random = SeededGenerator(seed: seed)
        let directory = TemporaryDirectory()
        let container = try makeContainer(.sqlite, in: directory, entities: [Animal.self, Dog.self, Puppy.self, Cat.self, Keeper.self])
        let context = container.newContext()
        var graph = Graph(), saved = Graph()
        var keepers: [String: Keeper] = [:]
        var animals: [String: Animal] = [:]
        var counter = 0
        func pick<T>(_ objects: [String: T]) -> (String, T)? {
            guard let name = objects.keys.sorted().randomElement(using: &random), let object = objects[name] else { return nil }
            return (name, object)
        }
        for step in 0..<steps {
            let what = "seed \(seed), step \(step)"
            switch Int.random(in: 0..<20, using: &random) {
            case 0...3:
                counter += 1
                let name = "a\(counter)"
                let animal = insertRandomAnimal(named: name, weight: Double(Int.random(in: 0..<100, using: &random)), into: context,
                                                using: &random)
                animals[name] = animal
                graph.animals[name] = String(describing: type(of: animal))
            case 4:
                counter += 1
                let keeper = Keeper(context: context)
                keeper.name = "k\(counter)"
                keepers[keeper.name] = keeper
                graph.pets[keeper.name] = []
                graph.queue[keeper.name] = []
            case 5...6:
                guard let (name, keeper) = pick(keepers) else { continue }
                if Bool.random(using: &random), let (animalName, animal) = pick(animals) {
                    keeper.favorite = animal
                    graph.favorite[name] = animalName
                } else {
                    keeper.favorite = nil
                    graph.favorite[name] = nil
                }
            case 7...8:
                guard let (name, keeper) = pick(keepers), let (animalName, animal) = pick(animals) else { continue }
                if graph.pets[name]?.contains(animalName) == true {
                    keeper.pets.remove(animal)
                    graph.pets[name]?.remove(animalName)
                } else {
                    keeper.pets.insert(animal)
                    graph.pets[name]?.insert(animalName)
                }
            case 9...10:
                guard let (name, keeper) = pick(keepers), let (dogName, dog) = pick(animals.compactMapValues { $0 as? Dog }) else { continue }
                if let index = graph.queue[name]?.firstIndex(of: dogName) {
                    keeper.queue.remove(at: index)
                    graph.queue[name]?.remove(at: index)
                } else {
                    let index = Int.random(in: 0...(graph.queue[name]?.count ?? 0), using: &random)
                    keeper.queue.insert(dog, at: index)
                    graph.queue[name]?.insert(dogName, at: index)
                }
            case 11:
                guard let (_, animal) = pick(animals) else { continue }
                animal.weight = Double(Int.random(in: 0..<100, using: &random))
            case 12:
                guard let (name, animal) = pick(animals) else { continue }
                context.delete(animal)
                animals[name] = nil
                graph.removeAnimal(name)
            case 13:
                // Cascade: the keeper's pets go with it.
                guard let (name, keeper) = pick(keepers) else { continue }
                context.delete(keeper)
                keepers[name] = nil
                for pet in graph.pets[name] ?? [] {
                    animals[pet] = nil
                    graph.removeAnimal(pet)
                }
                graph.favorite[name] = nil
                graph.pets[name] = nil
                graph.queue[name] = nil
            case 14:
                context.rollback()
                graph = saved
                keepers = Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest<Keeper>()).map { ($0.name, $0) })
                animals = Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest<Animal>()).map { ($0.name, $0) })
            default:
                try context.save()
                saved = graph
                let fresh = container.newContext()
                XCTAssertEqual(try read(fresh), saved, "a fresh context after the save, \(what)")
                try checkPredicates(fresh, what: what + " (fresh context)")
            }
            XCTAssertEqual(try read(context), graph, what)
            try checkPredicates(context, what: what)
            if testRun?.failureCount ?? 0 > 0 { return }
        }
    }

    /// The graph as a context's objects show it; every related object must be its row's class.
    private func read(_ context: ManagedObjectContext) throws -> Graph {
        var graph = Graph()
        for animal in try context.fetch(FetchRequest<Animal>()) {
            XCTAssertEqual(String(describing: type(of: animal)), animal.objectID.entityName)
            graph.animals[animal.name] = String(describing: type(of: animal))
        }
        for keeper in try context.fetch(FetchRequest<Keeper>()) {
            let related = [keeper.favorite].compactMap { $0 } + Array(keeper.pets) + keeper.queue
            for animal in related {
                XCTAssertEqual(graph.animals[animal.name], String(describing: type(of: animal)), "\(keeper.name) holds \(animal.name)")
            }
            graph.favorite[keeper.name] = keeper.favorite?.name
            graph.pets[keeper.name] = Set(keeper.pets.map(\.name))
            graph.queue[keeper.name] = keeper.queue.map(\.name)
        }
        return graph
    }

    /// Each predicate fetched (SQL, pending changes in memory) equals every keeper evaluated in memory.
    private func checkPredicates(_ context: ManagedObjectContext, what: String) throws {
        for format in formats {
            let request = FetchRequest<Keeper>(predicate: try FetchPredicate(format: format),
                                               sortBy: [FetchSortDescriptor(key: "favorite.weight"), FetchSortDescriptor(key: "name")])
            let plan = try context.plan(request)
            let expected = try context.fetch(FetchRequest<Keeper>()).filter(plan.matches).sorted(by: plan.areInIncreasingOrder)
            XCTAssertEqual(try context.fetch(request).map(\.name), expected.map(\.name), "\(format), \(what)")
            XCTAssertEqual(try context.count(for: request), expected.count, "count \(format), \(what)")
        }
    }
}
