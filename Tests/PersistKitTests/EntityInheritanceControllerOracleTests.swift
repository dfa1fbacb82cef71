import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// The results replay oracle over an inheritance tree: random inserts, changes, deletions,
/// saves and rollbacks of Dogs, Puppies and Cats in the controllers' context, in another
/// context of the same container (merged) and through another container on the same file
/// (another process, seen through history); after each batch, every controller's change sets
/// replayed on its old sections must equal a fresh fetch. Controllers over the parent
/// (`Animal`: sectioned, windowed, batched), the middle entity (`Dog`, with and without its
/// sub-entity) and the leaf (`Puppy`).
final class EntityInheritanceControllerOracleTests: XCTestCase {
    /// One watched controller: its harness's state against a fresh fetch, as a failure message.
    private struct Watched {
        let label: String
        let check: () throws -> String?
    }

    func testControllersOverATreeReplayToAFreshFetch() throws {
        let seed = testSeed("EntityInheritanceControllerOracleTests")
        let batches = testSize("EntityInheritanceControllerOracleTests", full: 200, ci: 60)
        var random = SeededGenerator(seed: seed)
        let directory = TemporaryDirectory()
        let model = try ManagedObjectModel(entities: [Animal.self, Dog.self, Puppy.self, Cat.self])
        let url = directory.file("tree.sqlite")
        let container = try PersistentContainer(model: model, store: .sqlite(url))
        let elsewhere = try PersistentContainer(model: model, store: .sqlite(url))
        let context = container.newContext()
        let other = container.newContext()

        var watched: [Watched] = []
        var harnesses: [AnyObject] = []
        func watch<R: Animal>(_ label: String, _ request: FetchRequest<R>, sectionedByBorn: Bool = false, chunk: Int? = nil) throws {
            let controller = sectionedByBorn
                ? FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: \.born)
                : FetchedResultsController(fetchRequest: request, context: context)
            if let chunk { controller.rowChunkSize = chunk }
            let harness = try ResultsHarness(controller)
            harnesses.append(harness)
            watched.append(Watched(label: label) {
                let objects = try context.fetch(request)
                var expected: [[ObjectIdentifier]] = sectionedByBorn ? [] : [objects.map(ObjectIdentifier.init)]
                if sectionedByBorn {
                    var previous: Date??
                    for object in objects {
                        if previous != .some(object.born) { expected.append([]) }
                        expected[expected.count - 1].append(ObjectIdentifier(object))
                        previous = .some(object.born)
                    }
                }
                if harness.current != expected { return "the controller's sections differ from a fresh fetch" }
                if harness.mirror != expected { return "its replayed change sets differ from a fresh fetch" }
                if !harness.problems.isEmpty { return "problems: \(harness.problems)" }
                if let wrong = controller.fetchedObjects.first(where: { type(of: $0).entityName != $0.objectID.entityName }) {
                    return "\(wrong.objectID) is a \(type(of: wrong))"
                }
                return nil
            })
        }
        let byWeight = [FetchSortDescriptor<Animal>(\.weight), FetchSortDescriptor(\.name)]
        try watch("Animal by weight", FetchRequest<Animal>(sortBy: byWeight))
        try watch("Animal light, by born", FetchRequest<Animal>(predicate: \.weight < 60,
                                                                sortBy: [FetchSortDescriptor(\.born), FetchSortDescriptor(\.name)]),
                  sectionedByBorn: true, chunk: 3)
        var windowed = FetchRequest<Animal>(sortBy: [FetchSortDescriptor(\.name, order: .reverse)])
        windowed.fetchLimit = 5
        windowed.fetchOffset = 1
        try watch("Animal windowed", windowed)
        var batched = FetchRequest<Animal>(sortBy: byWeight)
        batched.fetchBatchSize = 4
        try watch("Animal batched", batched, chunk: 4)
        try watch("Dog heavy", FetchRequest<Dog>(predicate: \.weight >= 20,
                                                 sortBy: [FetchSortDescriptor(\.weight, order: .reverse), FetchSortDescriptor(\.name)]))
        var dogsOnly = FetchRequest<Dog>(sortBy: [FetchSortDescriptor(\.name)])
        dogsOnly.includesSubentities = false
        try watch("Dog only", dogsOnly)
        var dogsBatched = FetchRequest<Dog>(sortBy: [FetchSortDescriptor(\.born), FetchSortDescriptor(\.name)])
        dogsBatched.fetchBatchSize = 3
        try watch("Dog batched", dogsBatched)
        try watch("Puppy", FetchRequest<Puppy>(sortBy: [FetchSortDescriptor(\.weight), FetchSortDescriptor(\.name)]))

        var counter = 0
        func insert(into context: ManagedObjectContext) -> String {
            counter += 1
            let animal: Animal
            switch Int.random(in: 0..<3, using: &random) {
            case 0: animal = Dog(context: context)
            case 1: animal = Puppy(context: context)
            default: animal = Cat(context: context)
            }
            animal.name = "a\(counter % 40)"
            animal.weight = Double(Int.random(in: 0..<100, using: &random))
            animal.born = Int.random(in: 0..<4, using: &random) == 0 ? nil : day(Int.random(in: 0..<4, using: &random))
            return "insert \(type(of: animal)) \(animal.name)"
        }
        func change(_ animal: Animal) -> String {
            switch Int.random(in: 0..<3, using: &random) {
            case 0: animal.weight = Double(Int.random(in: 0..<100, using: &random))
            case 1: animal.born = Bool.random(using: &random) ? nil : day(Int.random(in: 0..<4, using: &random))
            default: animal.name = "a\(Int.random(in: 0..<40, using: &random))"
            }
            return "change \(animal.name)"
        }
        /// A change another context (of this container or of the other) makes and saves.
        func changeAndSave(in context: ManagedObjectContext, _ who: String) throws -> String {
            var what: String
            let theirs = try context.fetch(FetchRequest<Animal>())
            switch (Int.random(in: 0..<4, using: &random), theirs.randomElement(using: &random)) {
            case (0, let pick?): context.delete(pick); what = "deleted \(pick.name)"
            case (1, let pick?), (2, let pick?): what = change(pick)
            default: what = insert(into: context)
            }
            do {
                try context.save()
            } catch let error as PersistError where error.code == .conflict {
                context.rollback()
                what += " (conflicted)"
            }
            return "\(who): \(what)"
        }

        for _ in 0..<8 { _ = insert(into: context) }
        try context.save()
        for batch in 0..<batches {
            var log: [String] = []
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                let live = try context.fetch(FetchRequest<Animal>())
                let target = live.randomElement(using: &random)
                switch Int.random(in: 0..<10, using: &random) {
                case 0, 1: log.append(insert(into: context))
                case 2, 3: if let target { log.append(change(target)) }
                case 4: if let target { context.delete(target); log.append("delete \(target.name)") }
                case 5: context.rollback(); log.append("rollback")
                case 6, 7:
                    do {
                        try context.save()
                        log.append("save")
                    } catch let error as PersistError where error.code == .conflict {
                        context.rollback()
                        log.append("save conflicted, rolled back")
                    }
                case 8: log.append(try changeAndSave(in: other, "other context"))
                default: log.append(try changeAndSave(in: elsewhere.newContext(), "other process"))
                }
            }
            // A fetch may refresh objects another context saved; the controllers hear of it at
            // the next processPendingChanges().
            _ = try context.fetch(FetchRequest<Animal>())
            context.processPendingChanges()
            for watch in watched {
                if let failure = try watch.check() {
                    XCTFail("\(watch.label): \(failure); seed \(seed) batch \(batch): \(log.joined(separator: ", "))")
                    return
                }
            }
        }
        XCTAssertEqual(harnesses.count, watched.count)
    }
}
