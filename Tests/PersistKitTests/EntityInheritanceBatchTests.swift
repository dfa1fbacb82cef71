import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Batch requests on an inheritance tree: updates and deletes over a parent (with and without
/// its sub-entities) or a sub-entity, inserts of a concrete sub-entity, and batch deletes
/// whose delete rules reach into a tree; each row recorded as its own entity's, in the
/// history, in other contexts' objects (refreshed or deleted as their classes) and in their
/// controllers.
final class EntityInheritanceBatchTests: XCTestCase {
    private let entities: [ManagedObject.Type] = [Animal.self, Dog.self, Puppy.self, Cat.self, Keeper.self, Warden.self]

    private func forEachStore(file: StaticString = #filePath, line: UInt = #line,
                              _ body: (PersistentContainer, StoreKind) throws -> Void) {
        PersistKitTests.forEachStore(entities: entities, file: file, line: line, body)
    }

    /// Rex (dog, 30, boxer), Tom (cat, 4), Bit (puppy, 3, pug), Ada (dog, 25, collie), Kit (cat, 5).
    private func seed(_ context: ManagedObjectContext) throws {
        for (kind, name, weight, breed) in [(Dog.self, "Rex", 30.0, "boxer"), (Cat.self, "Tom", 4, ""), (Puppy.self, "Bit", 3, "pug"),
                                            (Dog.self, "Ada", 25, "collie"), (Cat.self, "Kit", 5, "")] as [(Animal.Type, String, Double, String)] {
            let animal = insertAnimal(kind, named: name, weight: weight, into: context)
            (animal as? Dog)?.breed = breed
        }
        try context.save()
    }

    /// Every animal as "name:Class:weight", by name, in a fresh context.
    private func stored(_ container: PersistentContainer) throws -> [String] {
        try container.newContext().fetch(FetchRequest<Animal>(sortBy: [FetchSortDescriptor(\.name)]))
            .map { "\($0.name):\(type(of: $0)):\(Int($0.weight))" }
    }

    private func names(_ ids: [ObjectID], in context: ManagedObjectContext) throws -> [String] {
        try ids.map { id in
            let animal = try XCTUnwrap(context.object(with: id) as? Animal)
            return "\(animal.name):\(id.entityName)"
        }
    }

    func testABatchUpdateOfAParentChangesEverySubEntitysRowsAsTheirOwn() {
        forEachStore { container, kind in
            try seed(container.newContext())
            let watching = container.newContext()
            let held = try watching.fetch(FetchRequest<Animal>(sortBy: [FetchSortDescriptor(\.name)]))
            let byWeight = FetchedResultsController(fetchRequest: FetchRequest<Animal>(sortBy: [FetchSortDescriptor(\.weight), FetchSortDescriptor(\.name)]),
                                                    context: watching)
            try byWeight.performFetch()
            var changeSets: [ChangeSet] = []
            let token = byWeight.observe { changeSets.append($0) }
            let token0 = try container.history(after: nil).last?.token

            let context = container.newContext()
            let light = try context.execute(BatchUpdateRequest<Animal>(predicate: \.weight < 10, propertiesToUpdate: ["weight": 50.0]))
            XCTAssertEqual(try names(light.objectIDs, in: context), ["Bit:Puppy", "Tom:Cat", "Kit:Cat"], "[\(kind)] each row as its entity")
            XCTAssertEqual(try stored(container), ["Ada:Dog:25", "Bit:Puppy:50", "Kit:Cat:50", "Rex:Dog:30", "Tom:Cat:50"], "[\(kind)]")
            let changes = try XCTUnwrap(container.history(after: token0).last).changes
            XCTAssertEqual(changes.map(\.objectID.entityName).sorted(), ["Cat", "Cat", "Puppy"], "[\(kind)] the history names each row's entity")
            XCTAssertEqual(Set(changes.flatMap(\.changedKeys)), ["weight"])

            // The watching context refreshes its objects, as their classes; its controller moves them.
            watching.processPendingChanges()
            XCTAssertEqual(held.map { "\($0.name):\(Int($0.weight))" }, ["Ada:25", "Bit:50", "Kit:50", "Rex:30", "Tom:50"], "[\(kind)]")
            XCTAssertEqual(byWeight.fetchedObjects.map(\.name), ["Ada", "Rex", "Bit", "Kit", "Tom"], "[\(kind)]")
            XCTAssertEqual(changeSets.count, 1, "[\(kind)] one change set")
            token.cancel()
        }
    }

    func testABatchUpdateOfASubEntityWithAndWithoutItsSubEntities() {
        forEachStore { container, kind in
            try seed(container.newContext())
            let context = container.newContext()
            // A predicate on the sub-entity's own attribute; Puppies are Dogs.
            var dogs = BatchUpdateRequest<Dog>(predicate: \.breed != "boxer", propertiesToUpdate: ["weight": 1.0])
            XCTAssertEqual(try names(context.execute(dogs).objectIDs, in: context), ["Ada:Dog", "Bit:Puppy"], "[\(kind)]")
            dogs.includesSubentities = false
            dogs.propertiesToUpdate = ["weight": 2.0]
            XCTAssertEqual(try names(context.execute(dogs).objectIDs, in: context), ["Ada:Dog"], "[\(kind)] Dogs only")
            // An attribute only the sub-entity has.
            let trained = try context.execute(BatchUpdateRequest<Puppy>(propertiesToUpdate: ["trained": true]))
            XCTAssertEqual(trained.objectIDs.map(\.entityName), ["Puppy"])
            // The entity test of a format string is exact: Dogs, not Puppies.
            let exact = BatchUpdateRequest<Animal>(predicate: try FetchPredicate(format: "entity == %@", Dog.self), propertiesToUpdate: ["weight": 7.0])
            XCTAssertEqual(try names(context.execute(exact).objectIDs, in: context), ["Rex:Dog", "Ada:Dog"], "[\(kind)]")
            // The abstract root without its sub-entities has no objects.
            var none = BatchUpdateRequest<Animal>(propertiesToUpdate: ["weight": 9.0])
            none.includesSubentities = false
            XCTAssertEqual(try context.execute(none).objectIDs, [])
            XCTAssertEqual(try stored(container), ["Ada:Dog:7", "Bit:Puppy:1", "Kit:Cat:5", "Rex:Dog:7", "Tom:Cat:4"], "[\(kind)]")
            XCTAssertEqual(try container.newContext().fetch(FetchRequest<Puppy>()).first?.trained, true)
        }
    }

    func testABatchDeleteOfAParentOrASubEntityDeletesEachRowAsItsOwn() {
        forEachStore { container, kind in
            try seed(container.newContext())
            let watching = container.newContext()
            let held = try watching.fetch(FetchRequest<Animal>(sortBy: [FetchSortDescriptor(\.name)]))
            let list = FetchedResultsController(fetchRequest: FetchRequest<Animal>(sortBy: [FetchSortDescriptor(\.name)]), context: watching)
            try list.performFetch()

            let context = container.newContext()
            let light = try context.execute(BatchDeleteRequest<Animal>(predicate: \.weight < 5))
            XCTAssertEqual(light.objectIDs.map(\.entityName), ["Puppy", "Cat"], "[\(kind)] Bit and Tom")
            var dogs = BatchDeleteRequest<Dog>()
            dogs.includesSubentities = false
            XCTAssertEqual(try context.execute(dogs).objectIDs.map(\.entityName), ["Dog", "Dog"], "[\(kind)] Rex and Ada")
            XCTAssertEqual(try stored(container), ["Kit:Cat:5"], "[\(kind)]")
            watching.processPendingChanges()
            XCTAssertEqual(held.filter(\.isDeleted).map(\.name), ["Ada", "Bit", "Rex", "Tom"], "[\(kind)] deleted as their classes")
            XCTAssertEqual(list.fetchedObjects.map(\.name), ["Kit"], "[\(kind)]")
        }
    }

    func testABatchDeleteByIDsTakesTheSubEntitiesObjects() {
        forEachStore { container, kind in
            try seed(container.newContext())
            let context = container.newContext()
            let animals = try context.fetch(FetchRequest<Animal>(sortBy: [FetchSortDescriptor(\.name)]))   // Ada Bit Kit Rex Tom
            let ids = [animals[1].objectID, animals[2].objectID]
            XCTAssertEqual(try context.execute(BatchDeleteRequest<Animal>(objectIDs: ids)).objectIDs.sorted { $0.key < $1.key },
                           ids.sorted { $0.key < $1.key }, "[\(kind)]")
            // A Dog request takes Puppies' IDs, not Cats'.
            expectError(try context.execute(BatchDeleteRequest<Dog>(objectIDs: [animals[4].objectID])), .invalidRequest) { error in
                XCTAssertTrue(error.message.contains("an object of another entity or store"), error.message)
            }
            XCTAssertEqual(try stored(container), ["Ada:Dog:25", "Rex:Dog:30", "Tom:Cat:4"], "[\(kind)]")
        }
    }

    func testBatchDeletesWhoseRulesReachIntoATree() {
        forEachStore { container, kind in
            let context = container.newContext()
            try seed(context)
            let animals = try context.fetch(FetchRequest<Animal>(sortBy: [FetchSortDescriptor(\.name)]))   // Ada Bit Kit Rex Tom
            let ann = Keeper(context: context)
            ann.name = "Ann"
            ann.pets = [animals[0], animals[2]]          // Ada, Kit: cascade
            ann.favorite = animals[3]                    // Rex: nullified when Rex goes
            let wes = Warden(context: context)
            wes.name = "Wes"
            wes.charge = animals[1] as? Dog              // Bit (a Puppy is a Dog): cascade
            wes.ward = animals[4]                        // Tom: deny
            try context.save()

            // The deny holds: nothing is deleted.
            expectError(try context.execute(BatchDeleteRequest<Warden>()), .validation) { error in
                XCTAssertTrue(error.message.contains("Warden 1 cannot be deleted: its relationship ward (delete rule deny) still holds Animal"),
                              error.message)
            }
            // Cascades into the tree delete each row as its own entity's.
            let gone = try context.execute(BatchDeleteRequest<Keeper>())
            XCTAssertEqual(gone.objectIDs.map { "\($0.entityName) \($0.key)" }.sorted(), ["Cat 5", "Dog 4", "Keeper 1"], "[\(kind)]")
            XCTAssertEqual(try stored(container), ["Bit:Puppy:3", "Rex:Dog:30", "Tom:Cat:4"], "[\(kind)]")
            // Deleting Tom (a batch delete of the tree) clears the warden's ward; then the warden
            // goes, and Bit with him.
            XCTAssertEqual(try context.execute(BatchDeleteRequest<Animal>(predicate: \.name == "Tom")).objectIDs.map(\.entityName), ["Cat"])
            context.processPendingChanges()
            XCTAssertNil(wes.ward, "[\(kind)]")
            XCTAssertEqual(try context.execute(BatchDeleteRequest<Warden>()).objectIDs.map(\.entityName), ["Warden", "Puppy"], "[\(kind)]")
            XCTAssertEqual(try stored(container), ["Rex:Dog:30"], "[\(kind)]")
        }
    }

    func testABatchDeleteOfTheTreeNullifiesReferencesIntoIt() {
        forEachStore { container, kind in
            let context = container.newContext()
            try seed(context)
            let rex = try XCTUnwrap(context.fetch(FetchRequest<Dog>(predicate: \.name == "Rex")).first)
            let ann = Keeper(context: context)
            ann.name = "Ann"
            ann.favorite = rex
            ann.queue = [rex]
            try context.save()
            XCTAssertEqual(try context.execute(BatchDeleteRequest<Animal>(predicate: \.weight > 20)).objectIDs.map(\.entityName), ["Dog", "Dog"])
            context.processPendingChanges()
            XCTAssertNil(ann.favorite, "[\(kind)] the reference into the tree is nullified")
            XCTAssertEqual(ann.queue, [], "[\(kind)] and the link")
            let fresh = try XCTUnwrap(container.newContext().fetch(FetchRequest<Keeper>()).first)
            XCTAssertNil(fresh.favorite)
        }
    }

    func testABatchInsertOfASubEntityWritesItsEntity() {
        forEachStore { container, kind in
            let context = container.newContext()
            let result = try context.execute(BatchInsertRequest<Puppy>(objects: [["name": "Pip", "weight": 2.0, "breed": "pug"]]))
            XCTAssertEqual(result.objectIDs.map(\.entityName), ["Puppy"])
            try context.execute(BatchInsertRequest<Cat>(objects: [["name": "Sam", "weight": 4.0]]))
            XCTAssertEqual(try stored(container), ["Pip:Puppy:2", "Sam:Cat:4"], "[\(kind)]")
            XCTAssertEqual(try container.newContext().fetch(FetchRequest<Dog>()).map(\.breed), ["pug"])
            expectError(try context.execute(BatchInsertRequest<Animal>(objects: [["name": "Nobody"]])), .invalidRequest) { error in
                XCTAssertTrue(error.message.contains("Animal, which is abstract: insert objects of its sub-entities (Dog, Puppy, Cat)"), error.message)
            }
        }
    }

    func testABatchInsertUpsertsItsOwnEntitysRowsOnly() {
        PersistKitTests.forEachStore(entities: memberTreeEntities) { container, kind in
            let context = container.newContext()
            insertMember(Player.self, tag: "A", name: "Ann", score: 1, into: context)
            insertMember(Coach.self, tag: "B", name: "Bob", score: 1, into: context)
            try context.save()
            context.mergePolicy = .objectTrump
            try context.execute(BatchInsertRequest<Player>(objects: [["tag": "A", "name": "Ann", "score": 5]]))
            expectError(try context.execute(BatchInsertRequest<Player>(objects: [["tag": "B", "name": "Bea", "score": 5]])),
                        .constraintViolation) { error in
                XCTAssertTrue(error.message.contains("is already used by Coach 2"), error.message)
            }
            let members = try container.newContext().fetch(FetchRequest<Member>(sortBy: [FetchSortDescriptor(\.tag)]))
            XCTAssertEqual(members.map { "\(type(of: $0)) \($0.tag) \($0.score)" }, ["Player A 5", "Coach B 1"], "[\(kind)]")
        }
    }

    /// A batch delete through relationships declared in a tree (see InheritanceTreeRelationshipEntities):
    /// cascades within it and out of it, references into it cleared, links let go, a deny outside.
    func testBatchDeletesFollowTheRelationshipsDeclaredInATree() {
        PersistKitTests.forEachStore(entities: treeRelationshipEntities) { container, kind in
            let context = container.newContext()
            let gus = Guardian(context: context)
            gus.name = "Gus"
            let wes = Walker(context: context)
            wes.name = "Wes"
            let vet = Vet(context: context)
            vet.name = "Val"
            let rex = Hound(context: context)
            rex.name = "Rex"
            rex.guardian = gus
            rex.walker = wes
            let pip = Pup(context: context)
            pip.name = "Pip"
            pip.mother = rex                      // cascade: Pip goes with Rex
            pip.vets = [vet]
            let kit = Kitty(context: context)
            kit.name = "Kit"
            kit.guardian = gus
            let ball = Toy(context: context)
            ball.name = "ball"
            kit.toys = [ball]                     // cascade: the ball goes with Kit
            try context.save()

            // A walker of hounds is denied; a guardian's creatures only lose him.
            expectError(try context.execute(BatchDeleteRequest<Walker>()), .validation) { _ in }
            XCTAssertEqual(try context.execute(BatchDeleteRequest<Guardian>()).objectIDs.map(\.entityName), ["Guardian"], "[\(kind)]")
            context.processPendingChanges()
            XCTAssertNil(rex.guardian, "[\(kind)]")
            XCTAssertNil(kit.guardian, "[\(kind)]")
            // Deleting Kit takes her toy; deleting Rex takes Pip (a cascade within the tree), and
            // Pip's link to the vet goes with him.
            let kitty = try context.execute(BatchDeleteRequest<Kitty>())
            XCTAssertEqual(kitty.objectIDs.map(\.entityName), ["Kitty", "Toy"], "[\(kind)]")
            rex.walker = nil
            try context.save()
            let hounds = try context.execute(BatchDeleteRequest<Creature>(predicate: \.name == "Rex"))
            XCTAssertEqual(hounds.objectIDs.map(\.entityName), ["Hound", "Pup"], "[\(kind)]")
            context.processPendingChanges()
            XCTAssertEqual(vet.patients, [], "[\(kind)] the link to Pip went with him")
            let fresh = container.newContext()
            XCTAssertEqual(try fresh.count(for: FetchRequest<Creature>()), 0, "[\(kind)]")
            XCTAssertEqual(try fresh.count(for: FetchRequest<Toy>()), 0, "[\(kind)]")
            XCTAssertEqual(try fresh.count(for: FetchRequest<Vet>()), 1, "[\(kind)]")
        }
    }

    func testABatchUpdateWhosePredicateGoesThroughATreesRelationshipsUpdatesTheMatchingRows() {
        PersistKitTests.forEachStore(entities: treeRelationshipEntities) { container, kind in
            let context = container.newContext()
            let gus = Guardian(context: context)
            gus.name = "Gus"
            let wes = Walker(context: context)
            wes.name = "Wes"
            let val = Vet(context: context)
            val.name = "Val"
            let rex = Hound(context: context)
            rex.name = "Rex"
            rex.guardian = gus
            rex.walker = wes
            let pip = Pup(context: context)
            pip.name = "Pip"
            pip.mother = rex
            pip.vets = [val]
            pip.pack = [rex]
            pip.walker = wes
            let bo = Hound(context: context)
            bo.name = "Bo"
            let kit = Kitty(context: context)
            kit.name = "Kit"
            kit.guardian = gus
            try context.save()

            func update<T: ManagedObject>(_ type: T.Type, _ format: String, _ values: [String: Any?]) throws -> [String] {
                let result = try context.execute(BatchUpdateRequest<T>(predicate: try FetchPredicate(format: format), propertiesToUpdate: values))
                let reader = container.newContext()
                return try result.objectIDs.map { id in
                    "\(try XCTUnwrap(reader.object(with: id)?.value(forKey: "name") as? String)):\(id.entityName)"
                }.sorted()
            }
            // A to-one declared by a sub-entity, by the root (a self-relationship), and two hops.
            XCTAssertEqual(try update(Hound.self, "walker.name == 'Wes'", ["breed": "walked"]), ["Pip:Pup", "Rex:Hound"], "[\(kind)]")
            XCTAssertEqual(try update(Creature.self, "mother.name == 'Rex'", ["weight": 1.0]), ["Pip:Pup"], "[\(kind)]")
            XCTAssertEqual(try update(Creature.self, "mother.guardian.name == 'Gus'", ["weight": 2.0]), ["Pip:Pup"], "[\(kind)]")
            // To-manys declared in the tree: the inverse of the self-relationship, a many-to-many
            // of the root, one within a sub-entity.
            XCTAssertEqual(try update(Creature.self, "ANY children.name == 'Pip'", ["weight": 3.0]), ["Rex:Hound"], "[\(kind)]")
            XCTAssertEqual(try update(Creature.self, "ANY vets.name == 'Val'", ["weight": 4.0]), ["Pip:Pup"], "[\(kind)]")
            XCTAssertEqual(try update(Hound.self, "ANY packOf.name == 'Pip'", ["breed": "leader"]), ["Rex:Hound"], "[\(kind)]")
            XCTAssertEqual(try update(Creature.self, "guardian == nil AND mother == nil", ["weight": 5.0]), ["Bo:Hound"], "[\(kind)]")
            // From outside the tree, through a relationship declared in it.
            XCTAssertEqual(try update(Walker.self, "ANY hounds.mother.name == 'Rex'", ["name": "Walt"]), ["Walt:Walker"], "[\(kind)]")

            let fresh = container.newContext()
            let creatures = try fresh.fetch(FetchRequest<Creature>(sortBy: [FetchSortDescriptor(\.name)]))
            XCTAssertEqual(creatures.map { "\($0.name):\(Int($0.weight)):\(($0 as? Hound)?.breed ?? "-")" },
                           ["Bo:5:", "Kit:0:-", "Pip:4:walked", "Rex:3:leader"], "[\(kind)]")
        }
    }
}
