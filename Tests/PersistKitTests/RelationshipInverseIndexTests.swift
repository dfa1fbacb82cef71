import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

// Each inverse sits after other relationships of its class, so a wrong index finds another one.
private final class RIPerson: ManagedObject {
    override class var entityName: String { "Person" }
    @Attribute var name = ""
    @Relationship(inverse: .none) var favorite: RIPet?
    @Relationship var pets: Set<RIPet>
    @Relationship var passport: RIPassport?
    @Relationship var clubs: Set<RIClub>
}

private final class RIPet: ManagedObject {
    override class var entityName: String { "Pet" }
    @Attribute var name = ""
    @Relationship(inverse: .none) var vet: RIPerson?
    @Relationship(inverse: \RIPerson.pets) var owner: RIPerson?
}

private final class RIPassport: ManagedObject {
    override class var entityName: String { "Passport" }
    @Attribute var number = ""
    @Relationship(inverse: .none) var issuer: RIClub?
    @Relationship(inverse: \RIPerson.passport) var holder: RIPerson?
}

private final class RIClub: ManagedObject {
    override class var entityName: String { "Club" }
    @Attribute var name = ""
    @Relationship(inverse: \RIPerson.clubs) var members: Set<RIPerson>
}

/// A relationship knows its inverse's index (resolved with the model), and changing a link
/// keeps exactly that inverse in place: to-many lists, one-to-one partners, join tables.
final class RelationshipInverseIndexTests: XCTestCase {
    private let classes: [ManagedObject.Type] = [RIPerson.self, RIPet.self, RIPassport.self, RIClub.self]

    func testEveryInverseIndexNamesTheInverseThatPointsBack() throws {
        let model = try ManagedObjectModel(entities: classes)
        var inverses = 0
        for entity in model.entities {
            for relationship in entity.relationships {
                let what = "\(entity.name).\(relationship.name)"
                guard let inverseName = relationship.inverseName else {
                    XCTAssertNil(relationship.inverseIndex, "\(what) has no inverse")
                    continue
                }
                let destination = try XCTUnwrap(model.entity(named: relationship.destinationEntityName), what)
                let index = try XCTUnwrap(relationship.inverseIndex, "\(what) knows its inverse's index")
                XCTAssertEqual(destination.relationships[index].name, inverseName, what)
                XCTAssertEqual(destination.relationships[index].inverseName, relationship.name, "\(what)'s inverse points back")
                XCTAssertEqual(relationship.inverse(in: destination)?.name, inverseName, what)
                inverses += 1
            }
        }
        XCTAssertEqual(inverses, 6, "three pairs")
        let pets = try XCTUnwrap(model.entity(named: "Person")?.relationship(named: "pets"))
        XCTAssertEqual(pets.inverseIndex, 1, "Pet.owner follows Pet.vet")
    }

    func testDescriptionsStillCompareByValue() throws {
        let first = try ManagedObjectModel(entities: classes), second = try ManagedObjectModel(entities: classes)
        for entity in first.entities {
            let other = try XCTUnwrap(second.entity(named: entity.name))
            XCTAssertEqual(entity.relationships, other.relationships, entity.name)
            XCTAssertEqual(entity.relationships.map(\.hashValue), other.relationships.map(\.hashValue), entity.name)
        }
        let person = try XCTUnwrap(first.entity(named: "Person"))
        XCTAssertEqual(Set(person.relationships + (second.entity(named: "Person")?.relationships ?? [])).count, 4)
        XCTAssertNotEqual(person.relationships[1], person.relationships[3], "pets and clubs")
    }

    func testLinkingKeepsTheRightInverse() throws {
        let directory = TemporaryDirectory()
        let container = try PersistentContainer(model: ManagedObjectModel(entities: classes), store: .sqlite(directory.file("people.sqlite")))
        let context = container.newContext()
        let ann = RIPerson(context: context), bob = RIPerson(context: context)
        ann.name = "ann"
        bob.name = "bob"
        XCTAssertEqual(ann.pets, [], "loaded, so that linking changes it in place")
        let rex = RIPet(context: context)
        rex.name = "rex"
        rex.owner = ann
        rex.vet = bob
        XCTAssertEqual(ann.pets, [rex])
        XCTAssertEqual(bob.pets, [], "a one-way to-one has no inverse list")
        ann.favorite = rex
        XCTAssertTrue(rex.owner === ann, "setting another to-one of the pet left its owner alone")

        let passport = RIPassport(context: context), club = RIClub(context: context)
        passport.number = "P1"
        club.name = "chess"
        passport.issuer = club
        passport.holder = ann
        XCTAssertTrue(ann.passport === passport)
        bob.passport = passport
        XCTAssertTrue(passport.holder === bob, "a one-to-one follows from either side")
        XCTAssertNil(ann.passport, "the old partner lets go")
        XCTAssertEqual(club.members, [], "Passport.issuer is one-way")

        club.members.insert(ann)
        XCTAssertEqual(ann.clubs, [club])
        rex.owner = bob
        XCTAssertEqual(ann.pets, [])
        XCTAssertEqual(bob.pets, [rex])
        try context.save()

        let reader = container.newContext()
        let people = try reader.fetch(FetchRequest<RIPerson>(sortBy: [FetchSortDescriptor(\.name)]))
        XCTAssertEqual(people.map(\.name), ["ann", "bob"])
        XCTAssertEqual(people.map { $0.pets.map(\.name).sorted() }, [[], ["rex"]])
        XCTAssertEqual(people.map { $0.passport?.number }, [nil, "P1"])
        XCTAssertEqual(people.map { $0.clubs.map(\.name) }, [["chess"], []])
        XCTAssertEqual(people.map { $0.favorite?.name }, ["rex", nil])
    }
}
