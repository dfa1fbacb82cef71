import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Uniqueness constraints in an inheritance tree (the ``Member`` tree): a root's constraint
/// spans every entity of the tree (one unique index on the tree's table), a sub-entity's spans
/// it and its sub-entities (a partial unique index). Checked before writing as for any entity,
/// enforced by SQLite, order-independent within a save, and settled by the merge policies as
/// for a plain entity, except that an insert never updates a row of another entity.
final class EntityInheritanceUniquenessTests: XCTestCase {
    private func forEachStore(file: StaticString = #filePath, line: UInt = #line,
                              _ body: (PersistentContainer, StoreKind) throws -> Void) {
        PersistKitTests.forEachStore(entities: memberTreeEntities, file: file, line: line, body)
    }

    private func expectViolation(_ body: () throws -> Void, _ message: String, file: StaticString = #filePath, line: UInt = #line,
                                 _ check: (PersistError) -> Void = { _ in }) {
        XCTAssertThrowsError(try body(), message, file: file, line: line) { error in
            guard let error = error as? PersistError else { return XCTFail("not a PersistError: \(error)", file: file, line: line) }
            XCTAssertEqual(error.code, .constraintViolation, "\(message): \(error)", file: file, line: line)
            check(error)
        }
    }

    /// Every member's (entity, tag, name, score) in a fresh context, by tag.
    private func stored(_ container: PersistentContainer) throws -> [String] {
        try container.newContext().fetch(FetchRequest<Member>(sortBy: [FetchSortDescriptor(\.tag)]))
            .map { "\(type(of: $0)) \($0.tag) \($0.name) \($0.score)" }
    }

    func testTheTreeSharesTheRootsConstraintAndScopesTheSubEntitys() throws {
        let model = try ManagedObjectModel(entities: memberTreeEntities)
        XCTAssertEqual(model.entity(named: "Member")?.uniquenessConstraints, [["tag"]])
        XCTAssertEqual(model.entity(named: "Player")?.uniquenessConstraints, [["tag"], ["name"]])
        XCTAssertEqual(model.entity(named: "Captain")?.uniquenessConstraints, [["tag"], ["name"]])
        XCTAssertEqual(model.entity(named: "Coach")?.uniquenessConstraints, [["tag"]])
        XCTAssertEqual(model.entity(named: "Captain")?.uniquenessScope(1), "Player")
        XCTAssertEqual(model.entity(named: "Coach")?.uniquenessScope(0), "Member")
        let loaded = try ManagedObjectModel(document: model.document)
        XCTAssertEqual(loaded.versionHash, model.versionHash, "the document keeps the constraints")

        let directory = TemporaryDirectory()
        let url = directory.file("members.sqlite")
        _ = try PersistentContainer(model: model, store: .sqlite(url))
        let connection = try SQLiteConnection(path: url.path, configuration: .init())
        let statement = try connection.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name LIKE '_persistkit_unique%' ORDER BY name")
        var indexes: [String] = []
        while try statement.step() { indexes.append(statement.string(at: 0) + ": " + statement.string(at: 1)) }
        XCTAssertEqual(indexes, [
            #"_persistkit_unique_Member_0: CREATE UNIQUE INDEX "_persistkit_unique_Member_0" ON "Member" ("tag")"#,
            #"_persistkit_unique_Player_1: CREATE UNIQUE INDEX "_persistkit_unique_Player_1" ON "Member" ("name") WHERE "_entity" IN ('Player', 'Captain')"#,
        ])
        // A lookup of a Player's name searches the partial index.
        let plan = try connection.prepare("EXPLAIN QUERY PLAN SELECT t.\"_pk\" FROM (VALUES (?)) AS v JOIN \"Member\" AS t ON t.\"name\" = v.column1 "
                                          + "WHERE \"_entity\" IN ('Player', 'Captain')")
        var details: [String] = []
        while try plan.step() { details.append(plan.string(at: 3)) }
        XCTAssertTrue(details.contains { $0.contains("_persistkit_unique_Player_1") }, "\(details)")
    }

    func testTheRootsConstraintSpansEveryEntity() {
        forEachStore { container, kind in
            let context = container.newContext()
            insertMember(Player.self, tag: "A", name: "Ann", into: context)
            try context.save()
            // Stored: a Coach cannot take a Player's tag.
            let coach = insertMember(Coach.self, tag: "A", name: "Bob", into: context)
            expectViolation({ try context.save() }, "\(kind)") { error in
                XCTAssertEqual(error.message, #"Coach.tag "A" is already used by Player 1"#)
                XCTAssertEqual(error.objectIDs.map(\.entityName), ["Coach", "Player"])
            }
            // In the same save: two new members of different entities.
            coach.tag = "B"
            insertMember(Captain.self, tag: "B", name: "Cid", into: context)
            expectViolation({ try context.save() }, "\(kind)") { error in
                XCTAssertTrue(error.message.contains("is already used by another new Coach in this save"), error.message)
            }
            context.rollback()
            XCTAssertEqual(try stored(container), ["Player A Ann 0"], "\(kind): nothing written")
        }
    }

    func testASubEntitysConstraintSpansItAndItsSubEntitiesOnly() {
        forEachStore { container, kind in
            let context = container.newContext()
            insertMember(Player.self, tag: "A", name: "Ann", into: context)
            insertMember(Coach.self, tag: "B", name: "Ann", into: context)   // a Coach may share a Player's name
            try context.save()
            insertMember(Captain.self, tag: "C", name: "Ann", into: context)
            expectViolation({ try context.save() }, "\(kind): a Captain is a Player") { error in
                XCTAssertEqual(error.message, #"Captain.name "Ann" is already used by Player 1"#)
            }
            context.rollback()
            insertMember(Coach.self, tag: "C", name: "Ann", into: context)
            try context.save()
            XCTAssertEqual(try stored(container), ["Player A Ann 0", "Coach B Ann 0", "Coach C Ann 0"], "\(kind)")
        }
    }

    func testSQLiteEnforcesBothIndexes() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("members.sqlite")
        _ = try PersistentContainer(model: try ManagedObjectModel(entities: memberTreeEntities), store: .sqlite(url))
        let connection = try SQLiteConnection(path: url.path, configuration: .init())
        func insert(_ key: Int, _ entity: String, _ tag: String, _ name: String) throws {
            try connection.execute("INSERT INTO \"Member\" (\"_pk\", \"_version\", \"tag\", \"name\", \"score\", \"_entity\") "
                                   + "VALUES (\(key), 2, '\(tag)', '\(name)', 0, '\(entity)')")
        }
        try insert(1, "Player", "A", "Ann")
        try insert(2, "Coach", "B", "Ann")
        XCTAssertThrowsError(try insert(3, "Coach", "A", "Bob"), "the root's index spans the table")
        XCTAssertThrowsError(try insert(4, "Captain", "D", "Ann"), "the partial index spans Players and Captains")
    }

    func testSwapsAndRotationsAcrossEntitiesSaveInOneSave() {
        forEachStore { container, kind in
            let context = container.newContext()
            let a = insertMember(Player.self, tag: "A", name: "Ann", into: context)
            let b = insertMember(Coach.self, tag: "B", name: "Bob", into: context)
            let c = insertMember(Captain.self, tag: "C", name: "Cid", into: context)
            try context.save()
            // A swap of tags between a Player and a Coach (the root's constraint) ...
            a.tag = "B"
            b.tag = "A"
            try context.save()
            XCTAssertEqual(try stored(container), ["Coach A Bob 0", "Player B Ann 0", "Captain C Cid 0"], "\(kind)")
            // ... and a rotation of tags over three entities with a swap of names between a
            // Player and a Captain (the sub-entity's), a deletion and an insert taking a freed value.
            a.tag = "C"
            b.tag = "B"
            c.tag = "D"
            a.name = "Cid"
            c.name = "Ann"
            insertMember(Coach.self, tag: "A", name: "Cid", into: context)
            try context.save()
            XCTAssertEqual(try stored(container), ["Coach A Cid 0", "Coach B Bob 0", "Player C Cid 0", "Captain D Ann 0"], "\(kind)")
        }
    }

    func testMergePoliciesSettleATreeAsAPlainEntity() {
        forEachStore { container, kind in
            let writer = container.newContext()
            insertMember(Player.self, tag: "A", name: "Ann", score: 1, into: writer)
            insertMember(Coach.self, tag: "B", name: "Bob", score: 1, into: writer)
            try writer.save()

            // Object trump: an insert of the row's own entity updates it (an upsert) ...
            let upserting = container.newContext()
            upserting.mergePolicy = .objectTrump
            insertMember(Player.self, tag: "A", name: "Ann", score: 2, into: upserting)
            try upserting.save()
            XCTAssertEqual(try stored(container), ["Player A Ann 2", "Coach B Bob 1"], "\(kind)")
            // ... but not a row of another entity: a Player cannot become the stored Coach.
            insertMember(Player.self, tag: "B", name: "Bea", score: 3, into: upserting)
            expectViolation({ try upserting.save() }, "\(kind)") { error in
                XCTAssertEqual(error.message, #"Player.tag "B" is already used by Coach 2"#)
            }
            upserting.rollback()
            // Two new objects of different entities with one tag, under object trump.
            insertMember(Player.self, tag: "E", name: "Eve", into: upserting)
            insertMember(Coach.self, tag: "E", name: "Eli", into: upserting)
            expectViolation({ try upserting.save() }, "\(kind)") { error in
                XCTAssertTrue(error.message.contains("another new Player in this save"), error.message)
            }
            upserting.rollback()
            // A Coach deleted in the same save frees its tag for a Player.
            let coach = try XCTUnwrap(try upserting.fetch(FetchRequest<Coach>()).first)
            upserting.delete(coach)
            insertMember(Player.self, tag: "B", name: "Bea", score: 3, into: upserting)
            try upserting.save()
            XCTAssertEqual(try stored(container), ["Player A Ann 2", "Player B Bea 3"], "\(kind)")

            // The other policies refuse a new object with a stored member's tag, of its entity or another.
            for policy in [MergePolicy.error, .storeTrump, .rollback] {
                for entity in [Player.self, Captain.self, Coach.self] as [Member.Type] {
                    let context = container.newContext()
                    context.mergePolicy = policy
                    insertMember(entity, tag: "A", name: "Zed", into: context)
                    expectViolation({ try context.save() }, "\(kind) \(policy) \(entity)")
                }
            }
            XCTAssertEqual(try stored(container), ["Player A Ann 2", "Player B Bea 3"], "\(kind)")
        }
    }

    /// The generated variant of `UniqueValueReassignmentTests`' permutations, in a tree: members
    /// of random entities, whose tags (the root's constraint) and Players' names (a sub-entity's)
    /// are dealt out again in one save with deletions and inserts of any entity; the save
    /// succeeds, and the store holds exactly the new values.
    func testRandomPermutationsAcrossATreeSaveInOneSave() throws {
        let name = "EntityInheritanceUniquenessTests.testRandomPermutationsAcrossATreeSaveInOneSave"
        let seed = testSeed(name)
        let rounds = testSize(name, full: 150, ci: 50)
        var random = SeededGenerator(seed: seed)
        let kinds: [Member.Type] = [Player.self, Captain.self, Coach.self]
        let directory = TemporaryDirectory()
        for round in 0..<rounds {
            let container = try makeContainer(.sqlite, in: directory, entities: memberTreeEntities)
            let context = container.newContext()
            let count = Int.random(in: 2...16, using: &random)
            var members: [Member] = []
            for index in 0..<count {
                members.append(insertMember(kinds.randomElement(using: &random) ?? Coach.self, tag: "t\(index)", name: "n\(index)", into: context))
            }
            try context.save()
            let deleted = Set(members.indices.filter { _ in Int.random(in: 0..<6, using: &random) == 0 })
            var holders = members.indices.filter { !deleted.contains($0) }.map { members[$0] }
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                holders.append(insertMember(kinds.randomElement(using: &random) ?? Coach.self, tag: "", name: "", into: context))
            }
            let tags = ((0..<count).map { "t\($0)" } + (0..<holders.count).map { "f\($0)" }).shuffled(using: &random)
            let names = ((0..<count).map { "n\($0)" } + (0..<holders.count).map { "m\($0)" }).shuffled(using: &random)
            for index in deleted { context.delete(members[index]) }
            var expected: [String] = []
            for (index, member) in holders.enumerated().shuffled(using: &random) {
                member.tag = tags[index]
                // Players' names are unique among them; a Coach may take any Player's.
                member.name = member is Player ? names[index] : names[Int.random(in: 0..<names.count, using: &random)]
                expected.append("\(type(of: member)) \(member.tag) \(member.name) 0")
            }
            do {
                try context.save()
            } catch {
                XCTFail("seed \(seed) round \(round) (\(count) members, \(deleted.count) deleted): \(error)")
                continue
            }
            XCTAssertEqual(try stored(container).sorted(), expected.sorted(), "seed \(seed) round \(round)")
        }
    }
}

// Version 1 of the Member tree (see InheritanceEntities): no uniqueness constraint at all.
private class MemberV1: ManagedObject {
    override class var entityName: String { "Member" }
    override class var isAbstractEntity: Bool { true }
    @Attribute var tag = ""
    @Attribute var name = ""
    @Attribute var score = 0
}

private class PlayerV1: MemberV1 {
    override class var entityName: String { "Player" }
    @Attribute var position: String?
}

private final class CaptainV1: PlayerV1 {
    override class var entityName: String { "Captain" }
    @Attribute var armband = true
}

private final class CoachV1: MemberV1 {
    override class var entityName: String { "Coach" }
    @Attribute var license = ""
}

/// Inferred migrations that add or remove a tree's constraints: the unique indexes (partial for
/// a sub-entity's) made or dropped, stored duplicates refused clearly.
final class EntityInheritanceUniquenessMigrationTests: XCTestCase {
    private let version1: [ManagedObject.Type] = [MemberV1.self, PlayerV1.self, CaptainV1.self, CoachV1.self, TestTask.self]

    private func store(_ directory: TemporaryDirectory, _ entities: [ManagedObject.Type], version: Int,
                       _ members: [(String, String, String)]) throws -> (URL, ManagedObjectModel) {
        let url = directory.file("members.sqlite")
        let model = try ManagedObjectModel(entities: entities, version: version)
        let context = try PersistentContainer(model: model, store: .sqlite(url)).newContext()
        for (entity, tag, name) in members {
            let object = try XCTUnwrap(model.entity(named: entity)).objectClass.init(entity: XCTUnwrap(model.entity(named: entity)), insertInto: context)
            try object.setValue(tag, forKey: "tag")
            try object.setValue(name, forKey: "name")
        }
        try context.save()
        return (url, model)
    }

    func testAddingAndRemovingConstraintsInATreeIsInferred() throws {
        let directory = TemporaryDirectory()
        let (url, old) = try store(directory, version1, version: 1, [("Player", "A", "Ann"), ("Coach", "B", "Ann"), ("Captain", "C", "Cid")])
        let new = try ManagedObjectModel(entities: memberTreeEntities, version: 2)
        let changes = try MigrationDescription.changes(from: old, to: new)
        XCTAssertFalse(changes.isEmpty, "the constraints are a change")
        let container = try openMigrating(url, to: new, from: [old])
        try assertSchemaMatchesFreshStore(container)
        let context = container.newContext()
        XCTAssertEqual(try context.count(for: FetchRequest<Member>()), 3)
        insertMember(Captain.self, tag: "D", name: "Ann", into: context)
        XCTAssertThrowsError(try context.save(), "the Player constraint holds after the migration")
        context.rollback()
        insertMember(Coach.self, tag: "A", name: "Dan", into: context)
        XCTAssertThrowsError(try context.save(), "the root's constraint holds after the migration")

        // And back: version 3 drops both, and the duplicates they forbade can be saved.
        let version3 = try ManagedObjectModel(entities: version1, version: 3)
        let back = try openMigrating(url, to: version3, from: [old, new])
        try assertSchemaMatchesFreshStore(back)
        let again = back.newContext()
        for (entity, tag) in [("Captain", "A"), ("Coach", "A")] {
            let object = try XCTUnwrap(version3.entity(named: entity)).objectClass.init(entity: XCTUnwrap(version3.entity(named: entity)), insertInto: again)
            try object.setValue(tag, forKey: "tag")
            try object.setValue("Ann", forKey: "name")
        }
        try again.save()
        XCTAssertEqual(try again.count(for: FetchRequest<ManagedObject>(entityName: "Member")), 5)
    }

    func testStoredDuplicatesRefuseTheNewConstraintNamingThem() throws {
        let directory = TemporaryDirectory()
        // Two Players named Ann break Player's new constraint; a Coach named Ann would not.
        let (url, old) = try store(directory, version1, version: 1, [("Player", "A", "Ann"), ("Coach", "B", "Bob"), ("Captain", "C", "Ann")])
        let new = try ManagedObjectModel(entities: memberTreeEntities, version: 2)
        XCTAssertThrowsError(try openMigrating(url, to: new, from: [old])) { error in
            guard let error = error as? PersistError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.code, .constraintViolation, "\(error)")
            XCTAssertTrue(error.message.contains("Cannot make name unique"), error.message)
            XCTAssertEqual(error.objectIDs.compactMap(\.primaryKey), [1, 3], error.message)
        }
        // Nothing changed: version 1 still opens it.
        XCTAssertEqual(try PersistentContainer(model: old, store: .sqlite(url)).newContext().count(for: FetchRequest<ManagedObject>(entityName: "Member")), 3)
    }
}
