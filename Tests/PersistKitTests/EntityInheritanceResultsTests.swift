import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Results over an inheritance tree: a controller over the parent hears every change to its
/// sub-entities' objects (in its context, merged from another context, from another process),
/// sections and sorts on the parent's attributes; a batched fetch and `explain` of the parent.
final class EntityInheritanceResultsTests: XCTestCase {
    private let entities: [ManagedObject.Type] = [Animal.self, Dog.self, Puppy.self, Cat.self, Vehicle.self, Truck.self]

    @discardableResult
    private func animal<A: Animal>(_ animal: A, _ name: String, weight: Double, born: Int? = nil) -> A {
        animal.name = name
        animal.weight = weight
        animal.born = born.map(day)
        return animal
    }

    private func names(_ section: ResultsSection<Animal>) -> [String] {
        section.objects.map { "\($0.name):\(type(of: $0))" }
    }

    func testAControllerOverTheParentHearsEveryChangeToItsSubentities() throws {
        let directory = TemporaryDirectory()
        let model = try ManagedObjectModel(entities: entities)
        let container = try PersistentContainer(model: model, store: .sqlite(directory.file("zoo.sqlite")))
        let context = container.newContext()
        animal(Dog(context: context), "Rex", weight: 30, born: 1)
        animal(Cat(context: context), "Tom", weight: 4, born: 2)
        try context.save()
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<Animal>(sortBy: [FetchSortDescriptor(\.born), FetchSortDescriptor(\.weight)]),
            context: context, sectionNameKeyPath: \.born)
        let harness = try ResultsHarness(controller)
        XCTAssertEqual(controller.sections.map(names), [["Rex:Dog"], ["Tom:Cat"]])

        // An insert of a deeper sub-entity, in the controller's own context.
        let bit = animal(Puppy(context: context), "Bit", weight: 3, born: 1)
        context.processPendingChanges()
        XCTAssertEqual(harness.last?.insertedRows, [IndexPath(item: 0, section: 0)])
        XCTAssertEqual(controller.sections.map(names), [["Bit:Puppy", "Rex:Dog"], ["Tom:Cat"]])

        // An update that moves a Cat into another section, then a delete of a Dog.
        let tom = try XCTUnwrap(controller.fetchedObjects.first { $0.name == "Tom" })
        tom.born = day(1)
        context.processPendingChanges()
        XCTAssertEqual(harness.last?.deletedSections, IndexSet(integer: 1))
        XCTAssertEqual(controller.sections.map(names), [["Bit:Puppy", "Tom:Cat", "Rex:Dog"]])
        context.delete(bit)
        try context.save()
        XCTAssertEqual(harness.last?.deletedRows, [IndexPath(item: 0, section: 0)])

        // Another context's save, merged: a Cat inserted, a Dog changed (moved by its weight).
        let other = container.newContext()
        animal(Cat(context: other), "Kit", weight: 5, born: 3)
        let rex = try XCTUnwrap(other.fetch(FetchRequest<Dog>(predicate: \.name == "Rex")).first)
        rex.weight = 1
        try other.save()
        context.processPendingChanges()
        XCTAssertEqual(controller.sections.map(names), [["Rex:Dog", "Tom:Cat"], ["Kit:Cat"]])
        XCTAssertEqual(harness.last?.movedRows.count, 1)
        XCTAssertEqual(harness.last?.insertedSections, IndexSet(integer: 1))

        // Another process (another container on the same file): a Puppy inserted, a Cat deleted.
        let elsewhere = try PersistentContainer(model: model, store: .sqlite(directory.file("zoo.sqlite")))
        let theirs = elsewhere.newContext()
        animal(Puppy(context: theirs), "Pip", weight: 2, born: 3)
        if let kit = try theirs.fetch(FetchRequest<Cat>(predicate: \.name == "Kit")).first { theirs.delete(kit) }
        try theirs.save()
        context.processPendingChanges()
        XCTAssertEqual(controller.sections.map(names), [["Rex:Dog", "Tom:Cat"], ["Pip:Puppy"]])
        XCTAssertEqual(harness.mirror, harness.current)
        XCTAssertEqual(harness.problems, [])
    }

    func testABatchedControllerMakesARowPlacedSinceAsItsClassOnceNothingHoldsIt() throws {
        let directory = TemporaryDirectory()
        let container = try PersistentContainer(model: try ManagedObjectModel(entities: entities),
                                                store: .sqlite(directory.file("zoo.sqlite")))
        let context = container.newContext()
        var request = FetchRequest<Animal>(sortBy: [FetchSortDescriptor(\.name)])
        request.fetchBatchSize = 2
        let controller = FetchedResultsController(fetchRequest: request, context: context)
        try controller.performFetch()
        do {
            // Saved by another context and merged: the row holds its key only.
            let other = container.newContext()
            animal(Puppy(context: other), "Bit", weight: 3)
            animal(Cat(context: other), "Tom", weight: 4)
            try other.save()
            context.processPendingChanges()
        }
        // Nothing holds the merged objects any more: the context lets unchanged objects go.
        XCTAssertEqual(controller.fetchedObjects.map { "\($0.name):\(type(of: $0))" }, ["Bit:Puppy", "Tom:Cat"])
        XCTAssertEqual((0..<2).compactMap { controller.objectID(at: IndexPath(item: $0, section: 0))?.entityName }, ["Puppy", "Cat"])
    }

    func testIncludesSubentitiesFalseLeavesThemOut() throws {
        let container = try PersistentContainer(model: try ManagedObjectModel(entities: entities), store: .inMemory)
        let context = container.newContext()
        var request = FetchRequest<Dog>(sortBy: [FetchSortDescriptor(\.name)])
        request.includesSubentities = false
        let dogs = FetchedResultsController(fetchRequest: request, context: context)
        let harness = try ResultsHarness(dogs)
        animal(Dog(context: context), "Rex", weight: 30)
        animal(Puppy(context: context), "Bit", weight: 3)
        try context.save()
        XCTAssertEqual(dogs.fetchedObjects.map(\.name), ["Rex"])
        XCTAssertEqual(harness.changes.count, 1)
        // A concrete parent: its own objects only.
        var vehicles = FetchRequest<Vehicle>(sortBy: [FetchSortDescriptor(\.label)])
        vehicles.includesSubentities = false
        let onlyVehicles = FetchedResultsController(fetchRequest: vehicles, context: context)
        try onlyVehicles.performFetch()
        let truck = Truck(context: context)
        truck.label = "T"
        let van = Vehicle(context: context)
        van.label = "V"
        context.processPendingChanges()
        XCTAssertEqual(onlyVehicles.fetchedObjects.map(\.label), ["V"])
        XCTAssertEqual(harness.problems, [])
    }

    func testABatchedFetchOfTheParentMakesEachObjectAsItsOwnClass() throws {
        forEachStoreKind { container in
            let context = container.newContext()
            for index in 0..<10 {
                switch index % 3 {
                case 0: animal(Dog(context: context), "d\(index)", weight: Double(index))
                case 1: animal(Puppy(context: context), "p\(index)", weight: Double(index))
                default: animal(Cat(context: context), "c\(index)", weight: Double(index))
                }
            }
            try context.save()
            let reader = container.newContext()
            var request = FetchRequest<Animal>(predicate: \.weight != 4, sortBy: [FetchSortDescriptor(\.weight, order: .reverse)])
            request.fetchBatchSize = 3
            let pending = animal(Cat(context: reader), "new", weight: 5.5)   // unsaved: joins the results in order
            let batched = try reader.fetchBatched(request)
            let expected = try reader.fetch(request)
            XCTAssertEqual(batched.map { "\($0.name):\(type(of: $0))" }, expected.map { "\($0.name):\(type(of: $0))" })
            XCTAssertEqual(batched.map(\.name), ["d9", "c8", "p7", "d6", "new", "c5", "d3", "c2", "p1", "d0"])
            XCTAssertEqual((0..<batched.count).map { batched.objectID(at: $0) }, expected.map(\.objectID))
            XCTAssertTrue(batched[4] === pending)
            request.fetchOffset = 2
            request.fetchLimit = 3
            XCTAssertEqual(try reader.fetchBatched(request).map(\.name), ["p7", "d6", "new"])
        }
    }

    func testExplainOfTheParentShowsAQueryPerEntity() throws {
        let container = try PersistentContainer(model: try ManagedObjectModel(entities: entities), store: .inMemory)
        let context = container.newContext()
        let explanation = try context.explain(FetchRequest<Animal>(predicate: \.weight > 3, sortBy: [FetchSortDescriptor(\.name)]))
        XCTAssertEqual(explanation.entityName, "Animal")
        XCTAssertEqual(explanation.evaluation, .sql)
        XCTAssertEqual(explanation.sql.split(separator: "\n").count, 3, explanation.sql)
        XCTAssertEqual(explanation.queryPlan.filter { !$0.hasPrefix(" ") }, ["Dog:", "Puppy:", "Cat:"])
        XCTAssertEqual(explanation.boundValueCount, 3)
        XCTAssertTrue(explanation.reason.hasPrefix("one query per entity the request reads (Dog, Puppy, Cat)"), explanation.reason)
        var dogsOnly = FetchRequest<Dog>()
        dogsOnly.includesSubentities = false
        XCTAssertEqual(try context.explain(dogsOnly).sql.split(separator: "\n").count, 1)
    }

    private func forEachStoreKind(file: StaticString = #filePath, line: UInt = #line, _ body: (PersistentContainer) throws -> Void) {
        for kind in StoreKind.allCases {
            let directory = TemporaryDirectory()
            do {
                try body(try makeContainer(kind, in: directory, entities: entities))
            } catch {
                XCTFail("[\(kind)] \(error)", file: file, line: line)
            }
        }
    }
}
