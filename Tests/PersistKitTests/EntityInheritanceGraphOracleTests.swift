import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Random inserts, changes, deletions (with `Keeper.pets`' cascade), links and unlinks of
/// `Keeper`s' relationships into the `Animal` tree, saves and rollbacks, checked after every
/// step against an oracle of the graph: the working context's objects (each related object of
/// its row's class), a fresh context's after each save, and predicates through the
/// relationships fetched (SQL with pending changes judged in memory) against every object
/// evaluated in memory. The same for relationships declared in a tree (`Creature`'s guardian,
/// mother/children and vets, `Hound`'s pack), each linked and unlinked from either side.
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

    // MARK: Relationships declared in the tree

    /// The `Creature` graph by names: each creature's class, weight, guardian and mother; each
    /// vet's patients; each hound's pack. The other sides are derived from these.
    private struct TreeGraph: Equatable {
        var creatures: [String: String] = [:]
        var guardian: [String: String] = [:]
        var mother: [String: String] = [:]
        var patients: [String: Set<String>] = [:]
        var pack: [String: Set<String>] = [:]
        var guardians: Set<String> = []

        /// Removes a creature and, by `children`'s cascade, its descendants.
        mutating func removeCreature(_ name: String) {
            guard creatures[name] != nil else { return }
            creatures[name] = nil
            guardian[name] = nil
            mother[name] = nil
            pack[name] = nil
            for vet in patients.keys { patients[vet]?.remove(name) }
            for hound in pack.keys { pack[hound]?.remove(name) }
            for child in mother.filter({ $0.value == name }).map(\.key) { removeCreature(child) }
        }

        /// Both sides of every relationship, as lines.
        var lines: [String] {
            var lines = creatures.keys.sorted().map { name in
                let children = mother.filter { $0.value == name }.map(\.key).sorted()
                let vets = patients.filter { $0.value.contains(name) }.map(\.key).sorted()
                var line = "\(name):\(creatures[name] ?? "?") guardian=\(guardian[name] ?? "-") mother=\(mother[name] ?? "-") "
                    + "children=\(children) vets=\(vets)"
                if creatures[name] != "Kitty" {
                    let packOf = pack.filter { $0.value.contains(name) }.map(\.key).sorted()
                    line += " pack=\((pack[name] ?? []).sorted()) packOf=\(packOf)"
                }
                return line
            }
            lines += guardians.sorted().map { name in "\(name) creatures=\(guardian.filter { $0.value == name }.map(\.key).sorted())" }
            lines += patients.keys.sorted().map { "\($0) patients=\((patients[$0] ?? []).sorted())" }
            return lines
        }
    }

    private let treeFormats: [(entity: String, format: String)] = [
        ("Creature", "guardian.name == 'g1'"), ("Creature", "ANY children.weight > 50"), ("Creature", "mother.weight < 50"),
        ("Creature", "ANY vets.name == 'v2'"), ("Creature", "children.@count >= 1"), ("Creature", "guardian == nil"),
        ("Hound", "ANY pack.weight > 30"), ("Hound", "packOf.@count == 0"), ("Guardian", "ANY creatures.weight > 50"),
        ("Guardian", "creatures.@count >= 2"), ("Vet", "ANY patients.mother != nil"), ("Vet", "SUBQUERY(patients, $p, $p.guardian == nil).@count > 0"),
    ]

    func testGraphsDeclaredInATreeMatchTheOracle() throws {
        let seed = testSeed("EntityInheritanceGraphOracleTests.tree")
        let steps = testSize("EntityInheritanceGraphOracleTests.tree", full: 400, ci: 120)
        print("EntityInheritanceGraphOracleTests (tree): seed \(seed), \(steps) steps")
        var random = SeededGenerator(seed: seed)
        let directory = TemporaryDirectory()
        let container = try makeContainer(.sqlite, in: directory, entities: treeRelationshipEntities)
        let context = container.newContext()
        var graph = TreeGraph(), saved = TreeGraph()
        var creatures: [String: Creature] = [:], guardians: [String: Guardian] = [:], vets: [String: Vet] = [:]
        var counter = 0
        func pick<T>(_ objects: [String: T]) -> (String, T)? {
            guard let name = objects.keys.sorted().randomElement(using: &random), let object = objects[name] else { return nil }
            return (name, object)
        }
        func reload() throws {
            creatures = Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest<Creature>()).map { ($0.name, $0) })
            guardians = Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest<Guardian>()).map { ($0.name, $0) })
            vets = Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest<Vet>()).map { ($0.name, $0) })
        }
        for step in 0..<steps {
            let what = "seed \(seed), step \(step)"
            switch Int.random(in: 0..<22, using: &random) {
            case 0...3:
                counter += 1
                let creature: Creature = switch Int.random(in: 0..<3, using: &random) {
                case 0: Hound(context: context)
                case 1: Pup(context: context)
                default: Kitty(context: context)
                }
                creature.name = "c\(counter)"
                creature.weight = Double(Int.random(in: 0..<100, using: &random))
                creatures[creature.name] = creature
                graph.creatures[creature.name] = String(describing: type(of: creature))
            case 4:
                counter += 1
                let name = Bool.random(using: &random) ? "g\(counter % 3)" : "v\(counter % 3)"
                guard guardians[name] == nil, vets[name] == nil else { continue }
                if name.hasPrefix("g") {
                    let guardian = Guardian(context: context)
                    guardian.name = name
                    guardians[name] = guardian
                    graph.guardians.insert(name)
                } else {
                    let vet = Vet(context: context)
                    vet.name = name
                    vets[name] = vet
                    graph.patients[name] = []
                }
            case 5...6:
                guard let (name, creature) = pick(creatures) else { continue }
                let target = Bool.random(using: &random) ? pick(guardians) : nil
                if let (guardianName, guardian) = target, Bool.random(using: &random) {
                    guardian.creatures.insert(creature)       // from the other side
                    graph.guardian[name] = guardianName
                } else if target == nil, let old = creature.guardian, Bool.random(using: &random) {
                    old.creatures.remove(creature)
                    graph.guardian[name] = nil
                } else {
                    creature.guardian = target?.1
                    graph.guardian[name] = target?.0
                }
            case 7...8:
                guard let (name, creature) = pick(creatures) else { continue }
                var target = Bool.random(using: &random) ? pick(creatures) : nil
                if target?.0 == name { target = nil }
                creature.mother = target?.1
                graph.mother[name] = target?.0
            case 9...10:
                guard let (name, creature) = pick(creatures), let (vetName, vet) = pick(vets) else { continue }
                let linked = graph.patients[vetName]?.contains(name) == true
                switch (linked, Bool.random(using: &random)) {
                case (true, true): vet.patients.remove(creature)
                case (true, false): creature.vets.remove(vet)
                case (false, true): vet.patients.insert(creature)
                case (false, false): creature.vets.insert(vet)
                }
                if linked { graph.patients[vetName]?.remove(name) } else { graph.patients[vetName]?.insert(name) }
            case 11...12:
                let hounds = creatures.compactMapValues { $0 as? Hound }
                guard let (name, hound) = pick(hounds), let (otherName, other) = pick(hounds) else { continue }
                if graph.pack[name]?.contains(otherName) == true {
                    if Bool.random(using: &random) { hound.pack.remove(other) } else { other.packOf.remove(hound) }
                    graph.pack[name]?.remove(otherName)
                } else {
                    if Bool.random(using: &random) { hound.pack.insert(other) } else { other.packOf.insert(hound) }
                    graph.pack[name, default: []].insert(otherName)
                }
            case 13:
                guard let (_, creature) = pick(creatures) else { continue }
                creature.weight = Double(Int.random(in: 0..<100, using: &random))
            case 14:
                guard let (name, creature) = pick(creatures) else { continue }
                context.delete(creature)
                graph.removeCreature(name)
                creatures = creatures.filter { graph.creatures[$0.key] != nil }
            case 15:
                guard let (name, guardian) = pick(guardians) else { continue }
                context.delete(guardian)
                guardians[name] = nil
                graph.guardians.remove(name)
                graph.guardian = graph.guardian.filter { $0.value != name }
            case 16:
                context.rollback()
                graph = saved
                try reload()
            default:
                try context.save()
                saved = graph
                let fresh = container.newContext()
                XCTAssertEqual(try treeLines(fresh), saved.lines, "a fresh context after the save, \(what)")
                try checkTreePredicates(fresh, what: what + " (fresh context)")
            }
            XCTAssertEqual(try treeLines(context), graph.lines, what)
            try checkTreePredicates(context, what: what)
            if testRun?.failureCount ?? 0 > 0 { return }
        }
    }

    /// The graph's lines as a context's objects show both sides.
    private func treeLines(_ context: ManagedObjectContext) throws -> [String] {
        func names(_ objects: some Sequence<some ManagedObject>) -> [String] {
            objects.map { (try? $0.value(forKey: "name")) as? String ?? "?" }.sorted()
        }
        var lines: [String] = []
        for creature in try context.fetch(FetchRequest<Creature>()).sorted(by: { $0.name < $1.name }) {
            XCTAssertEqual(String(describing: type(of: creature)), creature.objectID.entityName)
            var line = "\(creature.name):\(type(of: creature)) guardian=\(creature.guardian?.name ?? "-") "
                + "mother=\(creature.mother?.name ?? "-") children=\(names(creature.children)) vets=\(names(creature.vets))"
            if let hound = creature as? Hound { line += " pack=\(names(hound.pack)) packOf=\(names(hound.packOf))" }
            lines.append(line)
        }
        lines += try context.fetch(FetchRequest<Guardian>()).sorted(by: { $0.name < $1.name }).map { "\($0.name) creatures=\(names($0.creatures))" }
        lines += try context.fetch(FetchRequest<Vet>()).sorted(by: { $0.name < $1.name }).map { "\($0.name) patients=\(names($0.patients))" }
        return lines
    }

    /// Each predicate through the tree's relationships fetched (SQL, pending changes in memory)
    /// equals every object of its entity evaluated in memory.
    private func checkTreePredicates(_ context: ManagedObjectContext, what: String) throws {
        func check<T: ManagedObject>(_ type: T.Type, _ format: String) throws {
            let request = FetchRequest<T>(predicate: try FetchPredicate(format: format),
                                          sortBy: [FetchSortDescriptor(key: "name")])
            let plan = try context.plan(request)
            let expected = try context.fetch(FetchRequest<T>()).filter(plan.matches).sorted(by: plan.areInIncreasingOrder)
            XCTAssertEqual(try context.fetch(request).map(\.objectID), expected.map(\.objectID), "\(T.self) \(format), \(what)")
            XCTAssertEqual(try context.count(for: request), expected.count, "count \(T.self) \(format), \(what)")
        }
        for (entity, format) in treeFormats {
            switch entity {
            case "Creature": try check(Creature.self, format)
            case "Hound": try check(Hound.self, format)
            case "Guardian": try check(Guardian.self, format)
            default: try check(Vet.self, format)
            }
        }
    }
}
