import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Relationships from entities outside a tree into it (`Keeper.favorite: Animal?`,
/// `Keeper.pets: Set<Animal>`, `Keeper.queue: [Dog]`, `Warden`'s deny and cascade): each
/// related object is its row's own entity, delete rules, predicates, sorts, prefetching,
/// batch inserts and merges, on both kinds of store.
final class EntityInheritanceRelationshipTests: XCTestCase {
    private let entities: [ManagedObject.Type] = [Animal.self, Dog.self, Puppy.self, Cat.self, Keeper.self, Warden.self]

    private func forEachStore(file: StaticString = #filePath, line: UInt = #line,
                              _ body: (PersistentContainer, StoreKind) throws -> Void) {
        PersistKitTests.forEachStore(entities: entities, file: file, line: line, body)
    }

    /// Rex (dog, 30), Bit (puppy, 3), Tom (cat, 4); Ann keeps Bit as favorite, Rex and Tom as
    /// pets, and queues Bit then Rex; Bob keeps nothing.
    private func seed(_ context: ManagedObjectContext) throws {
        let rex = Dog(context: context)
        rex.name = "Rex"
        rex.weight = 30
        let bit = Puppy(context: context)
        bit.name = "Bit"
        bit.weight = 3
        let tom = Cat(context: context)
        tom.name = "Tom"
        tom.weight = 4
        let ann = Keeper(context: context)
        ann.name = "Ann"
        ann.favorite = bit
        ann.pets = [rex, tom]
        ann.queue = [bit, rex]
        let bob = Keeper(context: context)
        bob.name = "Bob"
        try context.save()
    }

    private func keeper(_ name: String, in context: ManagedObjectContext) throws -> Keeper {
        try XCTUnwrap(context.fetch(FetchRequest<Keeper>(predicate: \.name == name)).first)
    }

    private func describe(_ animals: some Sequence<Animal>) -> [String] {
        animals.map { "\($0.name):\(type(of: $0))" }
    }

    func testRelatedObjectsAreTheirRowsEntities() {
        forEachStore { container, kind in
            try seed(container.newContext())
            let context = container.newContext()
            let ann = try keeper("Ann", in: context)
            let favorite = try XCTUnwrap(ann.favorite)
            XCTAssertTrue(favorite is Puppy, "[\(kind)] the to-one's object is the row's entity")
            XCTAssertEqual(favorite.objectID.entityName, "Puppy")
            XCTAssertEqual(describe(ann.pets).sorted(), ["Rex:Dog", "Tom:Cat"])
            XCTAssertEqual(describe(ann.queue), ["Bit:Puppy", "Rex:Dog"])
            // One object per row: a fetch of the tree finds the instances the relationships hold.
            let animals = try context.fetch(FetchRequest<Animal>())
            XCTAssertTrue(animals.contains { $0 === favorite })
            XCTAssertTrue(ann.queue[0] === favorite)
            XCTAssertTrue(try context.existingObject(Animal.self, primaryKey: XCTUnwrap(favorite.objectID.primaryKey)) === favorite)
            // A fetch of the tree first, then the relationships: the same instances.
            let other = container.newContext()
            let all = try other.fetch(FetchRequest<Animal>())
            let otherAnn = try keeper("Ann", in: other)
            XCTAssertTrue(all.contains { $0 === otherAnn.favorite })
            XCTAssertTrue(otherAnn.pets.allSatisfy { pet in all.contains { $0 === pet } })
        }
    }

    func testAnObjectOfAnotherEntityIsRefused() throws {
        let container = try PersistentContainer(model: try ManagedObjectModel(entities: entities), store: .inMemory)
        let context = container.newContext()
        let ann = Keeper(context: context)
        let tom = Cat(context: context)
        let bob = Keeper(context: context)
        expectError(try ann.setRelatedObjects([tom], forKey: "queue"), .invalidRequest) { error in
            XCTAssertTrue(error.message.contains("Keeper.queue holds Dog objects, not Cat"), error.message)
        }
        expectError(try ann.setRelatedObjects([bob], forKey: "favorite"), .invalidRequest) { error in
            XCTAssertTrue(error.message.contains("Keeper.favorite holds Animal objects, not Keeper"), error.message)
        }
        XCTAssertNoThrow(try ann.setRelatedObjects([tom], forKey: "favorite"))
        XCTAssertTrue(ann.favorite === tom)
    }

    func testDeletingARelatedObjectClearsItEverywhere() {
        forEachStore { container, kind in
            try seed(container.newContext())
            let reader = container.newContext()
            let readerAnn = try keeper("Ann", in: reader)
            XCTAssertEqual(readerAnn.favorite?.name, "Bit")
            let context = container.newContext()
            let ann = try keeper("Ann", in: context)
            let bit = try XCTUnwrap(ann.favorite)
            context.delete(bit)
            XCTAssertNil(ann.favorite, "[\(kind)] a deleted object reads as nil at once")
            XCTAssertEqual(describe(ann.queue), ["Rex:Dog"])
            try context.save()
            let freshContext = container.newContext()
            let fresh = try keeper("Ann", in: freshContext)
            XCTAssertNil(fresh.favorite)
            XCTAssertEqual(describe(fresh.queue), ["Rex:Dog"])
            // The keeper's row changed (its reference was cleared): another context hears it.
            reader.processPendingChanges()
            XCTAssertNil(readerAnn.favorite, "[\(kind)] merged")
            XCTAssertEqual(describe(readerAnn.queue), ["Rex:Dog"])
        }
    }

    func testDeleteRulesIntoTheTree() {
        forEachStore { container, kind in
            try seed(container.newContext())
            let context = container.newContext()
            // Cascade: Ann's pets go with her; her favorite (nullify) stays.
            context.delete(try keeper("Ann", in: context))
            try context.save()
            let fresh = container.newContext()
            XCTAssertEqual(describe(try fresh.fetch(FetchRequest<Animal>())), ["Bit:Puppy"], "[\(kind)]")

            // Deny: a warden holding a ward cannot be deleted; cascade: its charge goes with it.
            let bit = try XCTUnwrap(context.fetch(FetchRequest<Animal>()).first)
            let rex = Dog(context: context)
            rex.name = "Rex"
            let warden = Warden(context: context)
            warden.name = "W"
            warden.ward = bit
            warden.charge = rex
            try context.save()
            context.delete(warden)
            expectError(try context.save(), .validation) { error in
                XCTAssertTrue(error.message.contains("ward"), error.message)
            }
            context.rollback()
            warden.ward = nil
            try context.save()
            context.delete(warden)
            try context.save()
            XCTAssertEqual(describe(try container.newContext().fetch(FetchRequest<Animal>())), ["Bit:Puppy"], "[\(kind)] the charge went")
        }
    }

    func testPredicatesAndSortsThroughTheRelationshipsAgreeInSQLAndInMemory() {
        forEachStore { container, kind in
            try seed(container.newContext())
            let context = container.newContext()
            let formats = ["favorite.name == 'Bit'", "favorite.weight < 10", "ANY pets.name == 'Tom'", "pets.@count == 2",
                           "SUBQUERY(queue, $d, $d.weight > 10).@count > 0", "queue.@count == 0", "favorite == nil",
                           "ALL pets.weight > 1", "pets.@sum.weight > 30"]
            func check(_ what: String) throws {
                for format in formats {
                    let request = FetchRequest<Keeper>(predicate: try FetchPredicate(format: format),
                                                       sortBy: [FetchSortDescriptor(key: "favorite.name"), FetchSortDescriptor(key: "name")])
                    let fetched = try context.fetch(request).map(\.name)
                    let plan = try context.plan(request)
                    let expected = try context.fetch(FetchRequest<Keeper>()).filter(plan.matches).sorted(by: plan.areInIncreasingOrder)
                    XCTAssertEqual(fetched, expected.map(\.name), "[\(kind)] \(format), \(what)")
                }
            }
            try check("saved")
            XCTAssertEqual(try context.fetch(FetchRequest<Keeper>(predicate: try FetchPredicate(format: "favorite.name == 'Bit'"))).map(\.name),
                           ["Ann"])
            // Pending changes, judged in memory.
            let bob = try keeper("Bob", in: context)
            let rex = try XCTUnwrap(context.fetch(FetchRequest<Dog>(predicate: \.name == "Rex")).first)
            bob.favorite = rex
            bob.pets = [rex]
            let ace = Puppy(context: context)
            ace.name = "Ace"
            ace.weight = 12
            bob.queue = [ace]
            try check("pending")
            let byObject = try context.fetch(FetchRequest<Keeper>(predicate: \.favorite == rex)).map(\.name)
            XCTAssertEqual(byObject, ["Bob"])
            try context.save()
            try check("saved again")
        }
    }

    func testPrefetchingReadsEachRowAsItsEntityInOneQueryPerEntity() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(.sqlite, in: directory, entities: entities)
        try seed(container.newContext())
        let context = container.newContext()
        var request = FetchRequest<Keeper>(sortBy: [FetchSortDescriptor(\.name)])
        request.relationshipKeyPathsForPrefetching = ["favorite", "pets", "queue"]
        let keepers = try context.fetch(request)
        let before = context.store.readsRun
        XCTAssertEqual(describe(keepers[0].pets).sorted(), ["Rex:Dog", "Tom:Cat"])
        XCTAssertEqual(describe(keepers[0].queue), ["Bit:Puppy", "Rex:Dog"])
        XCTAssertTrue(keepers[0].favorite is Puppy)
        XCTAssertNil(keepers[1].favorite)
        XCTAssertEqual(keepers[1].pets.count, 0)
        XCTAssertEqual(context.store.readsRun, before, "prefetched: reading the relationships runs no query")
    }

    func testAnotherContextsRelationshipChangesAreMergedAsTheRowsEntity() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(.sqlite, in: directory, entities: entities)
        try seed(container.newContext())
        let reader = container.newContext()
        let readerBob = try keeper("Bob", in: reader)
        XCTAssertNil(readerBob.favorite)
        XCTAssertEqual(readerBob.pets.count, 0)
        var changed: [String] = []
        let token = reader.addObserver { changes in
            changed += changes.updated.map { "\(($0.object as? Keeper)?.name ?? "?"):\($0.keys.names.sorted())" }
        }
        let controller = FetchedResultsController(fetchRequest: FetchRequest<Keeper>(predicate: try FetchPredicate(format: "favorite.weight > 10"),
                                                                                     sortBy: [FetchSortDescriptor(\.name)]),
                                                  context: reader)
        try controller.performFetch()
        XCTAssertEqual(controller.fetchedObjects.map(\.name), [])
        let writer = container.newContext()
        let bob = try keeper("Bob", in: writer)
        let rex = try XCTUnwrap(writer.fetch(FetchRequest<Dog>(predicate: \.name == "Rex")).first)
        bob.favorite = rex
        bob.pets = [rex, Cat(context: writer)]
        try writer.save()
        reader.processPendingChanges()
        XCTAssertTrue(readerBob.favorite is Dog)
        XCTAssertEqual(readerBob.favorite?.name, "Rex")
        XCTAssertEqual(describe(readerBob.pets).sorted(), [":Cat", "Rex:Dog"])
        XCTAssertEqual(changed, ["Bob:[\"favorite\", \"pets\"]"])
        XCTAssertEqual(controller.fetchedObjects.map(\.name), ["Bob"], "a controller over Keeper hears the relationship change")
        // A change of the related object alone (its weight) moves the keeper in or out.
        let bit = try XCTUnwrap(writer.fetch(FetchRequest<Puppy>()).first)
        bob.favorite = bit
        try writer.save()
        reader.processPendingChanges()
        XCTAssertEqual(controller.fetchedObjects.map(\.name), [])
        bit.weight = 20
        try writer.save()
        reader.processPendingChanges()
        XCTAssertEqual(controller.fetchedObjects.map(\.name), ["Ann", "Bob"], "the favorites' weight changed alone")
        // The history names the row's entity too.
        let history = try container.history(after: nil)
        XCTAssertTrue(history.flatMap(\.changes).contains { $0.objectID.entityName == "Cat" })
        token.cancel()
    }

    func testBatchInsertsReferToTheTreesRows() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(.sqlite, in: directory, entities: entities)
        try seed(container.newContext())
        let context = container.newContext()
        let rex = try XCTUnwrap(context.fetch(FetchRequest<Dog>(predicate: \.name == "Rex")).first)
        try context.execute(BatchInsertRequest<Keeper>(objects: [["name": "Cy", "favorite": rex.objectID]]))
        let fresh = container.newContext()
        XCTAssertTrue(try keeper("Cy", in: fresh).favorite is Dog)
        // A key the tree does not hold is refused.
        let gone = ObjectID(entityName: "Dog", storeIdentifier: rex.objectID.storeIdentifier, key: 999, isTemporary: false)
        expectError(try context.execute(BatchInsertRequest<Keeper>(objects: [["name": "Di", "favorite": gone]])), .constraintViolation) { error in
            XCTAssertTrue(error.message.contains("favorite refers to Animal 999, which the store does not hold"), error.message)
        }
    }
}
