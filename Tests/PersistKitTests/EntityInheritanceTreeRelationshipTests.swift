import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Relationships declared in an inheritance tree (`TreeRelationshipEntities`): inherited by
/// every sub-entity, declared on a sub-entity only, within the tree and many-to-many, with
/// their inverses, delete rules, faults, prefetching, predicates, merges and controllers.
final class EntityInheritanceTreeRelationshipTests: XCTestCase {
    private func forEachStore(file: StaticString = #filePath, line: UInt = #line,
                              _ body: (PersistentContainer, StoreKind) throws -> Void) {
        PersistKitTests.forEachStore(entities: treeRelationshipEntities, file: file, line: line, body)
    }

    /// Rex (Hound, 30) and Bit (Pup, 3, Rex's child), Tom (Kitty, 4); Ann guards Rex and Tom;
    /// Wes walks Rex and Bit; Bit is in Rex's pack; Tom holds the toys ball then rope; Dr. Vo
    /// treats Rex and Tom.
    private func seed(_ context: ManagedObjectContext) throws {
        let rex = Hound(context: context)
        rex.name = "Rex"
        rex.weight = 30
        rex.breed = "boxer"
        let bit = Pup(context: context)
        bit.name = "Bit"
        bit.weight = 3
        bit.mother = rex
        let tom = Kitty(context: context)
        tom.name = "Tom"
        tom.weight = 4
        let ann = Guardian(context: context)
        ann.name = "Ann"
        ann.creatures = [rex, tom]
        let wes = Walker(context: context)
        wes.name = "Wes"
        rex.walker = wes
        bit.walker = wes
        rex.pack = [bit]
        let ball = Toy(context: context)
        ball.name = "ball"
        let rope = Toy(context: context)
        rope.name = "rope"
        tom.toys = [ball, rope]
        let vo = Vet(context: context)
        vo.name = "Vo"
        vo.patients = [rex, tom]
        try context.save()
    }

    private func creature(_ name: String, in context: ManagedObjectContext) throws -> Creature {
        try XCTUnwrap(context.fetch(FetchRequest<Creature>(predicate: \.name == name)).first)
    }

    private func names(_ objects: some Sequence<some ManagedObject>) -> [String] {
        objects.map { ((try? $0.value(forKey: "name")) as? String ?? "?") + ":\(type(of: $0))" }.sorted()
    }

    func testInheritedSlotsAreTheParentsSlots() throws {
        let model = try ManagedObjectModel(entities: treeRelationshipEntities)
        let creature = try XCTUnwrap(model.entity(named: "Creature")), pup = try XCTUnwrap(model.entity(named: "Pup"))
        let kitty = try XCTUnwrap(model.entity(named: "Kitty"))
        for entity in [pup, kitty] {
            XCTAssertEqual(entity.columns.count, creature.columns.count, entity.name)
            for relationship in creature.relationships {
                XCTAssertEqual(entity.relationships[relationship.index].storage, relationship.storage, "\(entity.name).\(relationship.name)")
            }
        }
        // The many-to-many declared on the parent has one join table for the tree.
        guard case .joinTable(let table, _) = pup.relationship(named: "vets")?.storage else { return XCTFail("vets") }
        XCTAssertEqual(table.name, "_persistkit_join_Creature_vets")
        // A model document describes the same tree.
        let loaded = try ManagedObjectModel(document: model.document)
        XCTAssertEqual(loaded.versionHash, model.versionHash)
        XCTAssertEqual(loaded.entity(named: "Pup")?.columns, pup.columns)
    }

    func testEachSideSeesTheOther() {
        forEachStore { container, kind in
            try seed(container.newContext())
            let context = container.newContext()
            let rex = try creature("Rex", in: context), bit = try creature("Bit", in: context), tom = try creature("Tom", in: context)
            XCTAssertTrue(rex is Hound && bit is Pup && tom is Kitty, "[\(kind)]")
            XCTAssertEqual(rex.guardian?.name, "Ann", "[\(kind)]")
            XCTAssertEqual(tom.guardian?.name, "Ann", "[\(kind)]")
            XCTAssertNil(bit.guardian, "[\(kind)]")
            XCTAssertTrue(bit.mother === rex, "[\(kind)]")
            XCTAssertEqual(names(rex.children), ["Bit:Pup"], "[\(kind)]")
            XCTAssertEqual(tom.toys.map(\.name), ["ball", "rope"], "[\(kind)]")
            XCTAssertEqual(names(rex.vets), ["Vo:Vet"], "[\(kind)]")
            XCTAssertEqual((rex as? Hound)?.walker?.name, "Wes", "[\(kind)]")
            XCTAssertEqual(names((bit as? Pup)?.packOf ?? []), ["Rex:Hound"], "[\(kind)]")
            let ann = try XCTUnwrap(context.fetch(FetchRequest<Guardian>()).first)
            XCTAssertEqual(names(ann.creatures), ["Rex:Hound", "Tom:Kitty"], "[\(kind)]")
            let wes = try XCTUnwrap(context.fetch(FetchRequest<Walker>()).first)
            XCTAssertEqual(names(wes.hounds), ["Bit:Pup", "Rex:Hound"], "[\(kind)]")
            let vo = try XCTUnwrap(context.fetch(FetchRequest<Vet>()).first)
            XCTAssertEqual(names(vo.patients), ["Rex:Hound", "Tom:Kitty"], "[\(kind)]")
            let ball = try XCTUnwrap(context.fetch(FetchRequest<Toy>(predicate: \.name == "ball")).first)
            XCTAssertTrue(ball.holder === tom, "[\(kind)]")
        }
    }

    private func one<T: ManagedObject>(_ type: T.Type, _ name: String, in context: ManagedObjectContext) throws -> T {
        try XCTUnwrap(context.fetch(FetchRequest<T>(predicate: try FetchPredicate(format: "name == %@", name))).first)
    }

    /// Each side's names as a context's objects show them.
    private func graph(_ context: ManagedObjectContext) throws -> [String] {
        var lines: [String] = []
        for creature in try context.fetch(FetchRequest<Creature>(sortBy: [FetchSortDescriptor(\.name)])) {
            var line = "\(creature.name):\(type(of: creature)) guardian=\(creature.guardian?.name ?? "-") mother=\(creature.mother?.name ?? "-")"
                + " children=\(names(creature.children)) toys=\(creature.toys.map(\.name)) vets=\(names(creature.vets))"
            if let hound = creature as? Hound {
                line += " walker=\(hound.walker?.name ?? "-") pack=\(names(hound.pack)) packOf=\(names(hound.packOf))"
            }
            lines.append(line)
        }
        for guardian in try context.fetch(FetchRequest<Guardian>(sortBy: [FetchSortDescriptor(\.name)])) {
            lines.append("\(guardian.name) creatures=\(names(guardian.creatures))")
        }
        for walker in try context.fetch(FetchRequest<Walker>(sortBy: [FetchSortDescriptor(\.name)])) {
            lines.append("\(walker.name) hounds=\(names(walker.hounds))")
        }
        for vet in try context.fetch(FetchRequest<Vet>(sortBy: [FetchSortDescriptor(\.name)])) {
            lines.append("\(vet.name) patients=\(names(vet.patients))")
        }
        for toy in try context.fetch(FetchRequest<Toy>(sortBy: [FetchSortDescriptor(\.name)])) {
            lines.append("\(toy.name) holder=\(toy.holder?.name ?? "-")")
        }
        return lines
    }

    func testUnsavedLinksShowOnBothSidesAndSave() {
        forEachStore { container, kind in
            try seed(container.newContext())
            let context = container.newContext()
            let ann = try one(Guardian.self, "Ann", in: context), wes = try one(Walker.self, "Wes", in: context)
            let vo = try one(Vet.self, "Vo", in: context)
            let rex = try one(Hound.self, "Rex", in: context), bit = try one(Pup.self, "Bit", in: context)
            let tom = try one(Kitty.self, "Tom", in: context)
            bit.guardian = ann                      // the to-one, on a sub-entity's object
            XCTAssertEqual(names(ann.creatures), ["Bit:Pup", "Rex:Hound", "Tom:Kitty"], "[\(kind)]")
            ann.creatures.remove(tom)               // the inverse, from outside the tree
            XCTAssertNil(tom.guardian, "[\(kind)]")
            let ace = Pup(context: context)
            ace.name = "Ace"
            ace.mother = bit                        // within the tree
            XCTAssertEqual(names(bit.children), ["Ace:Pup"], "[\(kind)]")
            bit.pack.insert(rex)                    // many-to-many within a sub-entity
            XCTAssertEqual(names(rex.packOf), ["Bit:Pup"], "[\(kind)]")
            vo.patients.insert(ace)                 // many-to-many from outside
            XCTAssertEqual(names(ace.vets), ["Vo:Vet"], "[\(kind)]")
            let yarn = Toy(context: context)
            yarn.name = "yarn"
            ace.toys = [yarn]                       // ordered, from the tree
            XCTAssertTrue(yarn.holder === ace, "[\(kind)]")
            wes.hounds.remove(rex)                  // a sub-entity's relationship, from outside
            XCTAssertNil(rex.walker, "[\(kind)]")
            let expected = try graph(context)
            try context.save()
            XCTAssertEqual(try graph(context), expected, "[\(kind)] saved")
            XCTAssertEqual(try graph(container.newContext()), expected, "[\(kind)] a fresh context")
        }
    }

    func testDeleteRulesBothWays() {
        forEachStore { container, kind in
            try seed(container.newContext())
            let context = container.newContext()
            // Walker.hounds denies: a walker of hounds cannot be deleted.
            context.delete(try one(Walker.self, "Wes", in: context))
            expectError(try context.save(), .validation) { error in
                XCTAssertTrue(error.message.contains("hounds"), error.message)
            }
            context.rollback()
            // Creature.children cascades: Rex's deletion takes Bit (a Pup); every other side lets go (nullify).
            context.delete(try one(Hound.self, "Rex", in: context))
            try context.save()
            XCTAssertEqual(try graph(container.newContext()), [
                "Tom:Kitty guardian=Ann mother=- children=[] toys=[\"ball\", \"rope\"] vets=[\"Vo:Vet\"]",
                "Ann creatures=[\"Tom:Kitty\"]", "Wes hounds=[]", "Vo patients=[\"Tom:Kitty\"]",
                "ball holder=Tom", "rope holder=Tom",
            ], "[\(kind)]")
            // Creature.toys cascades; Guardian.creatures nullifies.
            context.delete(try one(Kitty.self, "Tom", in: context))
            context.delete(try one(Walker.self, "Wes", in: context))
            try context.save()
            XCTAssertEqual(try graph(container.newContext()), ["Ann creatures=[]", "Vo patients=[]"], "[\(kind)]")
        }
    }

    func testPredicatesAndSortsThroughTheTreesRelationshipsAgreeInSQLAndInMemory() {
        forEachStore { container, kind in
            let context = container.newContext()
            func check<T: ManagedObject>(_ type: T.Type, _ formats: [String], sortedBy sort: String, _ what: String) throws {
                for format in formats {
                    let request = FetchRequest<T>(predicate: try FetchPredicate(format: format),
                                                  sortBy: [FetchSortDescriptor(key: sort), FetchSortDescriptor(key: "name")])
                    let plan = try context.plan(request)
                    let expected = try context.fetch(FetchRequest<T>()).filter(plan.matches).sorted(by: plan.areInIncreasingOrder)
                    XCTAssertEqual(names(try context.fetch(request)), names(expected), "[\(kind)] \(T.self) \(format), \(what)")
                }
            }
            func checkAll(_ what: String) throws {
                try check(Creature.self, ["guardian.name == 'Ann'", "mother.name == 'Rex'", "ANY children.weight < 10", "children.@count == 0",
                                          "ANY vets.name == 'Vo'", "toys.@count > 1", "guardian == nil", "mother.guardian.name == 'Ann'"],
                          sortedBy: "guardian.name", what)
                try check(Hound.self, ["walker.name == 'Wes'", "ANY pack.name == 'Bit'", "packOf.@count > 0"], sortedBy: "walker.name", what)
                try check(Guardian.self, ["ANY creatures.weight > 10", "creatures.@count == 2", "SUBQUERY(creatures, $c, $c.mother == nil).@count > 1"],
                          sortedBy: "name", what)
                try check(Walker.self, ["ANY hounds.name == 'Bit'", "ANY hounds.mother.name == 'Rex'"], sortedBy: "name", what)
                try check(Vet.self, ["ANY patients.name == 'Tom'", "ANY patients.guardian.name == 'Ann'"], sortedBy: "name", what)
                try check(Toy.self, ["holder.name == 'Tom'", "holder.guardian != nil"], sortedBy: "holder.name", what)
            }
            try seed(context)
            try checkAll("saved")
            let bit = try one(Pup.self, "Bit", in: context)
            bit.guardian = try one(Guardian.self, "Ann", in: context)
            bit.walker = nil
            let ace = Pup(context: context)
            ace.name = "Ace"
            ace.mother = bit
            try one(Vet.self, "Vo", in: context).patients.insert(ace)
            try checkAll("pending")
            XCTAssertEqual(names(try context.fetch(FetchRequest<Creature>(predicate: try FetchPredicate(format: "guardian.name == 'Ann'")))),
                           ["Bit:Pup", "Rex:Hound", "Tom:Kitty"], "[\(kind)]")
            try context.save()
            try checkAll("saved again")
            let fresh = container.newContext()
            XCTAssertEqual(names(try fresh.fetch(FetchRequest<Creature>(predicate: try FetchPredicate(format: "ANY vets.name == 'Vo'")))),
                           ["Ace:Pup", "Rex:Hound", "Tom:Kitty"], "[\(kind)]")
        }
    }

    func testPrefetchingOverTheParent() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(.sqlite, in: directory, entities: treeRelationshipEntities)
        try seed(container.newContext())
        let context = container.newContext()
        var request = FetchRequest<Creature>(sortBy: [FetchSortDescriptor(\.name)])
        request.relationshipKeyPathsForPrefetching = ["guardian", "mother", "children", "toys", "vets", "guardian.creatures"]
        let creatures = try context.fetch(request)
        let before = context.store.readsRun
        XCTAssertEqual(creatures.map(\.name), ["Bit", "Rex", "Tom"])
        XCTAssertEqual(creatures.map { $0.guardian?.name ?? "-" }, ["-", "Ann", "Ann"])
        XCTAssertTrue(creatures[0].mother === creatures[1])
        XCTAssertEqual(names(creatures[1].children), ["Bit:Pup"])
        XCTAssertEqual(creatures[2].toys.map(\.name), ["ball", "rope"])
        XCTAssertEqual(creatures.map { names($0.vets) }, [[], ["Vo:Vet"], ["Vo:Vet"]])
        XCTAssertEqual(names(try XCTUnwrap(creatures[1].guardian).creatures), ["Rex:Hound", "Tom:Kitty"])
        XCTAssertEqual(context.store.readsRun, before, "prefetched: reading the relationships runs no query")
    }

    func testChangesFromAnotherContextAndProcessReachObjectsAndControllers() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("zoo.sqlite")
        let model = try ManagedObjectModel(entities: treeRelationshipEntities)
        let container = try PersistentContainer(model: model, store: .sqlite(url))
        try seed(container.newContext())
        let reader = container.newContext()
        let ann = try one(Guardian.self, "Ann", in: reader), rex = try one(Hound.self, "Rex", in: reader)
        XCTAssertEqual(names(ann.creatures), ["Rex:Hound", "Tom:Kitty"])
        XCTAssertEqual(names(rex.children), ["Bit:Pup"])
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<Creature>(predicate: try FetchPredicate(format: "guardian.name == 'Ann'"), sortBy: [FetchSortDescriptor(\.name)]),
            context: reader)
        try controller.performFetch()
        XCTAssertEqual(names(controller.fetchedObjects), ["Rex:Hound", "Tom:Kitty"])
        // Another context: Bit gets a guardian, a new Pup a mother.
        let writer = container.newContext()
        try one(Pup.self, "Bit", in: writer).guardian = try one(Guardian.self, "Ann", in: writer)
        let ace = Pup(context: writer)
        ace.name = "Ace"
        ace.mother = try one(Hound.self, "Rex", in: writer)
        try writer.save()
        reader.processPendingChanges()
        XCTAssertEqual(names(ann.creatures), ["Bit:Pup", "Rex:Hound", "Tom:Kitty"])
        XCTAssertEqual(names(rex.children), ["Ace:Pup", "Bit:Pup"])
        XCTAssertEqual(names(controller.fetchedObjects), ["Bit:Pup", "Rex:Hound", "Tom:Kitty"], "the controller over the parent heard it")
        // Another process: Tom leaves Ann, Rex joins Dr. Vo's... and Ace's pack.
        let elsewhere = try PersistentContainer(model: model, store: .sqlite(url))
        let theirs = elsewhere.newContext()
        try one(Kitty.self, "Tom", in: theirs).guardian = nil
        try one(Pup.self, "Ace", in: theirs).pack = [try one(Hound.self, "Rex", in: theirs)]
        try theirs.save()
        reader.processPendingChanges()
        XCTAssertEqual(names(ann.creatures), ["Bit:Pup", "Rex:Hound"])
        XCTAssertEqual(names(rex.packOf), ["Ace:Pup"])
        XCTAssertEqual(names(controller.fetchedObjects), ["Bit:Pup", "Rex:Hound"])
        let history = try container.history(after: nil)
        XCTAssertTrue(history.flatMap(\.changes).contains { $0.objectID.entityName == "Pup" })
        XCTAssertEqual(try graph(reader), try graph(elsewhere.newContext()))
    }

    func testTreeColumnsOfOneNameAreRefused() {
        expectError(try ManagedObjectModel(entities: [Animal.self, Dog.self, Parrot.self, Keeper.self, Perched.self]), .invalidModel) { error in
            XCTAssertTrue(error.message.contains("Perched.perch would store its column perch in the table Animal"), error.message)
        }
        // One sub-entity declaring a one-way relationship is fine.
        XCTAssertNoThrow(try ManagedObjectModel(entities: [Animal.self, Dog.self, Parrot.self, Keeper.self]))
    }
}

/// A second sub-entity of ``Animal`` declaring a relationship named as ``Parrot``'s: the two
/// would share the tree table's column.
private final class Perched: Animal {
    @Relationship(inverse: .none) var perch: Keeper?
}
