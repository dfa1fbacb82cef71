import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Upserts: under merge policy `.objectTrump` an insert whose unique values a stored object
/// already has updates that object (Core Data's `NSMergeByPropertyObjectTrumpMergePolicy`):
/// the insert's values win, it takes the row's ID, relationships follow it to the row.
///
/// Every test that upserts fails on a PersistKit without upserts: there the save throws
/// `.constraintViolation` (as `.error` still does: testErrorPolicyStillRefuses, UniquenessTests).
final class UpsertTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var url: URL!
    private var container: PersistentContainer!

    override func setUpWithError() throws {
        directory = TemporaryDirectory()
        url = directory.file("upsert.sqlite")
        container = try makeUpsertContainer(directory, url: url)
    }

    override func tearDown() {
        container = nil
        directory = nil
    }

    /// A context that upserts.
    private func trumpContext() -> ManagedObjectContext {
        let context = container.newContext()
        context.mergePolicy = .objectTrump
        return context
    }

    /// The store as a new container on the same file sees it.
    private func freshContext() throws -> ManagedObjectContext {
        try makeUpsertContainer(directory, url: url).newContext()
    }

    @discardableResult
    private func storeTag(_ label: String, color: String? = nil, uses: Int = 0, shortcut: String? = nil,
                          tasks: [String] = []) throws -> ObjectID {
        let context = container.newContext()
        let tag = UPTag(context: context)
        tag.label = label
        tag.color = color
        tag.uses = uses
        tag.shortcut = shortcut
        for title in tasks {
            let task = UPTask(context: context)
            task.title = title
            tag.tasks.insert(task)
        }
        try context.save()
        return tag.objectID
    }

    private func storedTag(_ label: String, in context: ManagedObjectContext) throws -> UPTag {
        try XCTUnwrap(context.fetch(FetchRequest<UPTag>(predicate: \.label == label)).first, "no tag \(label)")
    }

    // MARK: Attribute-level constraint

    func testCollidingInsertUpdatesTheStoredObjectAndTakesItsID() throws {
        let stored = try storeTag("urgent", color: "red", uses: 3)
        let context = trumpContext()
        let tag = UPTag(context: context)
        tag.label = "urgent"
        tag.uses = 5   // color stays nil: the insert's nil wins too, as in Core Data
        try context.save()

        XCTAssertEqual(tag.objectID, stored, "the insert became the stored object")
        XCTAssertFalse(tag.isInserted)
        XCTAssertTrue(tag.managedObjectContext === context)
        XCTAssertTrue(context.object(with: stored) === tag, "registered under the row's key")
        XCTAssertFalse(context.hasChanges)
        let rows = try freshContext().fetch(FetchRequest<UPTag>())
        XCTAssertEqual(rows.count, 1, "one row")
        XCTAssertEqual(rows.first?.objectID, stored)
        XCTAssertEqual(rows.first?.uses, 5)
        XCTAssertNil(rows.first?.color, "every attribute of the insert is written, nil ones too")

        // An ordinary saved object from now on, also under `.error`.
        context.mergePolicy = .error
        tag.color = "green"
        try context.save()
        XCTAssertEqual(try storedTag("urgent", in: freshContext()).color, "green")
    }

    func testContextHoldingTheStoredObjectKeepsOneInstance() throws {
        let stored = try storeTag("urgent", color: "red", uses: 3)
        let context = trumpContext()
        let held = try storedTag("urgent", in: context)
        let tag = UPTag(context: context)
        tag.label = "urgent"
        tag.color = "blue"
        tag.uses = 9
        try context.save()

        XCTAssertEqual(held.uses, 9, "the held object takes the insert's values")
        XCTAssertEqual(held.color, "blue")
        XCTAssertFalse(held.hasChanges)
        XCTAssertNil(tag.managedObjectContext, "the inserted instance left the context")
        XCTAssertEqual(tag.objectID, stored, "... with the row's ID")
        XCTAssertFalse(tag.isInserted)
        XCTAssertFalse(tag.isDeleted, "its row exists: it was merged, not deleted")
        XCTAssertEqual(tag.uses, 9, "it keeps its values")
        XCTAssertTrue(context.object(with: stored) === held)
        XCTAssertEqual(context.registeredObjects.filter { $0 is UPTag }.count, 1)
        let fetched = try context.fetch(FetchRequest<UPTag>())
        XCTAssertEqual(fetched.count, 1)
        XCTAssertTrue(fetched.first === held)
        XCTAssertEqual(try storedTag("urgent", in: freshContext()).uses, 9)

        held.uses = 10
        try context.save()
        XCTAssertEqual(try storedTag("urgent", in: freshContext()).uses, 10)
    }

    func testNoCollisionInsertsAsUsual() throws {
        try storeTag("urgent")
        let context = trumpContext()
        let tag = UPTag(context: context)
        tag.label = "later"
        let unlabelled = [UPTag(context: context), UPTag(context: context)]
        for (index, other) in unlabelled.enumerated() {
            other.label = "l\(index)"
            other.shortcut = nil   // nil never collides
        }
        try context.save()
        XCTAssertEqual(try freshContext().fetch(FetchRequest<UPTag>()).map(\.label).sorted(), ["l0", "l1", "later", "urgent"])
    }

    func testOtherContextsSeeTheUpdatedObject() throws {
        try storeTag("urgent", uses: 1)
        let other = container.newContext()
        let theirs = try storedTag("urgent", in: other)
        let context = trumpContext()
        let tag = UPTag(context: context)
        tag.label = "urgent"
        tag.uses = 2
        try context.save()
        other.processPendingChanges()
        XCTAssertEqual(theirs.uses, 2)
        XCTAssertEqual(try other.fetch(FetchRequest<UPTag>()).count, 1)
    }

    // MARK: Entity-level compound constraint

    func testCompoundConstraintUpsertsOnlyWhenEveryKeyMatches() throws {
        let setup = container.newContext()
        for (first, last, born) in [("Ann", "Lee", 1970), ("Ann", "Kay", 1971)] {
            let person = UPPerson(context: setup)
            person.first = first
            person.last = last
            person.born = born
        }
        try setup.save()
        let annLee = try XCTUnwrap(setup.fetch(FetchRequest<UPPerson>(predicate: \.last == "Lee")).first).objectID

        let context = trumpContext()
        func insert(_ first: String, _ last: String?, _ born: Int) -> UPPerson {
            let person = UPPerson(context: context)
            person.first = first
            person.last = last
            person.born = born
            return person
        }
        let again = insert("Ann", "Lee", 1980)
        _ = insert("Bob", "Lee", 1990)
        _ = insert("Ann", nil, 2000)
        _ = insert("Ann", nil, 2001)   // a nil key never collides, as in SQLite's unique indexes
        try context.save()

        XCTAssertEqual(again.objectID, annLee)
        let people = try freshContext().fetch(FetchRequest<UPPerson>(sortBy: [FetchSortDescriptor(\.born)]))
        XCTAssertEqual(people.map { "\($0.first) \($0.last ?? "-") \($0.born)" },
                       ["Ann Kay 1971", "Ann Lee 1980", "Bob Lee 1990", "Ann - 2000", "Ann - 2001"])
    }

    // MARK: Colliding inserts

    func testTwoCollidingInsertsMakeOneRowAndTheLaterWins() throws {
        let context = trumpContext()
        let first = UPTag(context: context), second = UPTag(context: context), third = UPTag(context: context)
        first.label = "x"; first.uses = 1; first.color = "red"
        second.label = "y"; second.uses = 2
        third.label = "x"; third.uses = 3
        try context.save()

        XCTAssertEqual(first.objectID, third.objectID, "both inserts are the one row")
        XCTAssertFalse(first.objectID.isTemporary)
        XCTAssertTrue(third.managedObjectContext === context, "the later insert is the row's object")
        XCTAssertNil(first.managedObjectContext, "the earlier one left the context")
        XCTAssertTrue(context.object(with: third.objectID) === third)
        XCTAssertTrue(context.insertedObjects.isEmpty)
        let rows = try freshContext().fetch(FetchRequest<UPTag>(sortBy: [FetchSortDescriptor(\.label)]))
        XCTAssertEqual(rows.map(\.label), ["x", "y"])
        XCTAssertEqual(rows.first?.uses, 3)
        XCTAssertNil(rows.first?.color, "the later insert's values, all of them")
    }

    func testCollidingInsertsAndAStoredRowMakeOneRow() throws {
        let stored = try storeTag("x", uses: 1)
        let context = trumpContext()
        let held = try storedTag("x", in: context)
        let inserts = (2...4).map { uses in
            let tag = UPTag(context: context)
            tag.label = "x"
            tag.uses = uses
            return tag
        }
        try context.save()
        XCTAssertEqual(Set(inserts.map(\.objectID)), [stored])
        XCTAssertTrue(inserts.allSatisfy { $0.managedObjectContext == nil })
        XCTAssertEqual(held.uses, 4)
        let rows = try freshContext().fetch(FetchRequest<UPTag>())
        XCTAssertEqual(rows.map(\.uses), [4])
    }

    func testInsertsLinkedThroughTwoConstraintsMerge() throws {
        let context = trumpContext()
        let a = UPTag(context: context), b = UPTag(context: context), c = UPTag(context: context)
        a.label = "a"; a.shortcut = "1"
        b.label = "b"; b.shortcut = "1"   // meets a by shortcut
        c.label = "b"; c.shortcut = "2"   // meets b by label
        try context.save()
        XCTAssertEqual(Set([a, b, c].map(\.objectID)).count, 1)
        let rows = try freshContext().fetch(FetchRequest<UPTag>())
        XCTAssertEqual(rows.map { "\($0.label) \($0.shortcut ?? "-")" }, ["b 2"])
    }

    // MARK: Relationships follow the insert to the row

    func testObjectsPointingAtTheInsertPointAtTheStoredObject() throws {
        let setup = container.newContext()
        let project = UPProject(context: setup)
        project.code = "P1"
        project.name = "Old"
        let old = UPTask(context: setup), loose = UPTask(context: setup)
        old.title = "old"; old.project = project
        loose.title = "loose"
        try setup.save()
        let stored = project.objectID

        let context = trumpContext()
        let relinked = try XCTUnwrap(context.fetch(FetchRequest<UPTask>(predicate: \.title == "loose")).first)
        let duplicate = UPProject(context: context)
        duplicate.code = "P1"
        duplicate.name = "New"
        let fresh = UPTask(context: context)
        fresh.title = "fresh"
        fresh.project = duplicate
        relinked.project = duplicate   // a saved object pointing at the insert
        try context.save()

        XCTAssertEqual(duplicate.objectID, stored)
        XCTAssertTrue(fresh.project === duplicate)
        XCTAssertTrue(relinked.project === duplicate)
        XCTAssertEqual(duplicate.tasks.map(\.title).sorted(), ["fresh", "loose", "old"], "the row's tasks and the insert's")
        let check = try freshContext()
        let project2 = try XCTUnwrap(check.fetch(FetchRequest<UPProject>()).first)
        XCTAssertEqual(try check.fetch(FetchRequest<UPProject>()).count, 1)
        XCTAssertEqual(project2.name, "New")
        XCTAssertEqual(project2.tasks.map(\.title).sorted(), ["fresh", "loose", "old"])
        XCTAssertTrue(try check.fetch(FetchRequest<UPTask>()).allSatisfy { $0.project === project2 })
    }

    func testTheInsertsNilToOneReplacesTheStoredOne() throws {
        let people = container.newContext()
        let person = UPPerson(context: people)
        person.first = "Ann"; person.last = "Lee"
        let desk = UPDesk(context: people)
        desk.number = 1
        person.desk = desk
        try people.save()

        let context = trumpContext()
        let again = UPPerson(context: context)
        again.first = "Ann"; again.last = "Lee"
        try context.save()
        let check = try freshContext()
        let stored = try XCTUnwrap(check.fetch(FetchRequest<UPPerson>()).first)
        XCTAssertNil(stored.desk, "the insert's nil to-one wins")
        let desk1 = try XCTUnwrap(check.fetch(FetchRequest<UPDesk>()).first)
        XCTAssertNil(desk1.person, "and the one-to-one's other side let go")
    }

    func testOwnedJoinTableListsAreMerged() throws {
        try storeTag("urgent", tasks: ["a"])
        let setup = container.newContext()
        let c = UPTask(context: setup)
        c.title = "c"
        try setup.save()

        for holds in [false, true] {
            let context = trumpContext()
            let held = holds ? try storedTag("urgent", in: context) : nil
            _ = held?.tasks   // loaded: the cached list must not hide the merged one
            let storedC = try XCTUnwrap(context.fetch(FetchRequest<UPTask>(predicate: \.title == "c")).first)
            let duplicate = UPTag(context: context)
            duplicate.label = "urgent"
            let b = UPTask(context: context)
            b.title = holds ? "b2" : "b"
            duplicate.tasks = [b, storedC]
            let d = UPTask(context: context)
            d.title = holds ? "d2" : "d"
            d.tags = [duplicate]   // from the derived side
            try context.save()

            let survivor = holds ? try XCTUnwrap(held) : duplicate
            let expected = holds ? ["a", "b", "b2", "c", "d", "d2"] : ["a", "b", "c", "d"]
            XCTAssertEqual(survivor.tasks.map(\.title).sorted(), expected, "held: \(holds)")
            XCTAssertTrue(b.tags == [survivor], "held: \(holds)")
            XCTAssertTrue(d.tags == [survivor], "held: \(holds)")
            let check = try freshContext()
            XCTAssertEqual(try check.fetch(FetchRequest<UPTag>()).count, 1)
            XCTAssertEqual(try storedTag("urgent", in: check).tasks.map(\.title).sorted(), expected)
        }
    }

    func testJoinTableOwnedByTheOtherSideFollows() throws {
        let setup = container.newContext()
        let lab = UPZone(context: setup), hall = UPZone(context: setup)
        lab.name = "lab"; lab.floor = 1
        hall.name = "hall"
        let x = UPTask(context: setup)
        x.title = "x"
        x.zones = [lab]
        try setup.save()

        let context = trumpContext()
        let storedLab = try XCTUnwrap(context.fetch(FetchRequest<UPZone>(predicate: \.name == "lab")).first)
        let storedHall = try XCTUnwrap(context.fetch(FetchRequest<UPZone>(predicate: \.name == "hall")).first)
        let newLab = UPZone(context: context)
        newLab.name = "lab"
        newLab.floor = 2
        let y = UPTask(context: context), z = UPTask(context: context)
        y.title = "y"
        y.zones = [newLab, storedHall]
        z.title = "z"
        z.zones = [storedLab, newLab]   // the same row twice, after the save
        try context.save()

        XCTAssertEqual(storedLab.floor, 2)
        XCTAssertNil(newLab.managedObjectContext)
        XCTAssertEqual(y.zones.map(\.name).sorted(), ["hall", "lab"])
        XCTAssertTrue(y.zones.contains(storedLab))
        XCTAssertEqual(z.zones.count, 1)
        XCTAssertTrue(z.zones.first === storedLab)
        XCTAssertEqual(storedLab.tasks.map(\.title).sorted(), ["x", "y", "z"])
        let check = try freshContext()
        let lab2 = try XCTUnwrap(check.fetch(FetchRequest<UPZone>(predicate: \.name == "lab")).first)
        XCTAssertEqual(lab2.floor, 2)
        XCTAssertEqual(lab2.tasks.map(\.title).sorted(), ["x", "y", "z"])
        XCTAssertEqual(try check.fetch(FetchRequest<UPZone>()).count, 2)
    }

    func testOrderedListIsAppendedAfterTheStoredMembers() throws {
        let setup = container.newContext()
        let mix = UPPlaylist(context: setup)
        mix.name = "mix"
        mix.songs = ["a", "b"].map { title in
            let song = UPSong(context: setup)
            song.title = title
            return song
        }
        try setup.save()

        let context = trumpContext()
        let a = try XCTUnwrap(context.fetch(FetchRequest<UPSong>(predicate: \.title == "a")).first)
        let c = UPSong(context: context)
        c.title = "c"
        let again = UPPlaylist(context: context)
        again.name = "mix"
        again.songs = [c, a]
        try context.save()
        XCTAssertEqual(again.songs.map(\.title), ["a", "b", "c"], "the row's members, then the insert's new ones")
        let check = try freshContext()
        XCTAssertEqual(try XCTUnwrap(check.fetch(FetchRequest<UPPlaylist>()).first).songs.map(\.title), ["a", "b", "c"])
    }

    func testMergedInsertsListsAreMergedToo() throws {
        let context = trumpContext()
        let first = UPTag(context: context), second = UPTag(context: context)
        first.label = "x"
        second.label = "x"
        for (tag, title) in [(first, "e"), (second, "l")] {
            let task = UPTask(context: context)
            task.title = title
            tag.tasks = [task]
        }
        let mixFirst = UPPlaylist(context: context), mixSecond = UPPlaylist(context: context)
        mixFirst.name = "m"; mixSecond.name = "m"
        for (list, title) in [(mixFirst, "s1"), (mixSecond, "s2")] {
            let song = UPSong(context: context)
            song.title = title
            list.songs = [song]
        }
        try context.save()
        XCTAssertEqual(second.tasks.map(\.title).sorted(), ["e", "l"])
        XCTAssertEqual(mixSecond.songs.map(\.title), ["s2", "s1"], "the winner's list, then the merged one's")
        let check = try freshContext()
        XCTAssertEqual(try storedTag("x", in: check).tasks.map(\.title).sorted(), ["e", "l"])
        XCTAssertTrue(try check.fetch(FetchRequest<UPTask>()).allSatisfy { $0.tags.map(\.label) == ["x"] })
        XCTAssertEqual(try XCTUnwrap(check.fetch(FetchRequest<UPPlaylist>()).first).songs.map(\.title), ["s2", "s1"])
    }

    func testOneToOneStaysOneToOne() throws {
        let setup = container.newContext()
        let ann = UPPerson(context: setup)
        ann.first = "Ann"; ann.last = "Lee"
        let deskOne = UPDesk(context: setup)
        deskOne.number = 1
        ann.desk = deskOne
        try setup.save()

        let context = trumpContext()
        let heldDesk = try XCTUnwrap(context.fetch(FetchRequest<UPDesk>()).first)
        XCTAssertNotNil(heldDesk.person)
        let again = UPPerson(context: context)
        again.first = "Ann"; again.last = "Lee"
        let deskTwo = UPDesk(context: context)
        deskTwo.number = 2
        again.desk = deskTwo
        try context.save()

        XCTAssertEqual(again.objectID, ann.objectID)
        // Reading heldDesk.person made the context hold Ann: that instance is the row's object.
        let survivor = try XCTUnwrap(context.object(with: ann.objectID) as? UPPerson)
        XCTAssertNil(again.managedObjectContext)
        XCTAssertTrue(survivor.desk === deskTwo)
        XCTAssertTrue(deskTwo.person === survivor)
        XCTAssertNil(heldDesk.person, "the stored partner let go, in memory too")
        let check = try freshContext()
        let person = try XCTUnwrap(check.fetch(FetchRequest<UPPerson>()).first)
        XCTAssertEqual(person.desk?.number, 2)
        let desks = try check.fetch(FetchRequest<UPDesk>(sortBy: [FetchSortDescriptor(\.number)]))
        XCTAssertNil(desks.first?.person)
        XCTAssertTrue(desks.last?.person === person)
    }

    func testMergedInsertsOneToOnesStayOneToOne() throws {
        let context = trumpContext()
        var desks: [UPDesk] = []
        var people: [UPPerson] = []
        for number in 1...2 {
            let person = UPPerson(context: context)
            person.first = "Ann"; person.last = "Lee"
            let desk = UPDesk(context: context)
            desk.number = number
            person.desk = desk
            desks.append(desk)
            people.append(person)
        }
        try context.save()
        XCTAssertTrue(people[1].desk === desks[1])
        XCTAssertTrue(desks[1].person === people[1])
        XCTAssertNil(desks[0].person, "the merged insert's desk let go")
        let check = try freshContext()
        XCTAssertEqual(try check.fetch(FetchRequest<UPPerson>()).map { $0.desk?.number }, [2])
        XCTAssertEqual(try check.fetch(FetchRequest<UPDesk>(sortBy: [FetchSortDescriptor(\.number)])).map { $0.person == nil }, [true, false])
    }

    // MARK: Objects changed in the same save

    func testInsertTakingTheNewValuesOfAnUpdatedObjectUpdatesIt() throws {
        try storeTag("a", uses: 1)
        let context = trumpContext()
        let renamed = try storedTag("a", in: context)
        renamed.label = "b"
        let takesB = UPTag(context: context)
        takesB.label = "b"
        takesB.uses = 7
        let takesA = UPTag(context: context)   // "a" was given up by the rename: a new row
        takesA.label = "a"
        takesA.uses = 8
        try context.save()
        XCTAssertEqual(takesB.objectID, renamed.objectID)
        XCTAssertEqual(renamed.uses, 7)
        XCTAssertNotEqual(takesA.objectID, renamed.objectID)
        let rows = try freshContext().fetch(FetchRequest<UPTag>(sortBy: [FetchSortDescriptor(\.label)]))
        XCTAssertEqual(rows.map { "\($0.label) \($0.uses)" }, ["a 8", "b 7"])
    }

    func testInsertTakingADeletedObjectsValuesInsertsANewRow() throws {
        let stored = try storeTag("a", uses: 1)
        let context = trumpContext()
        context.delete(try storedTag("a", in: context))
        let again = UPTag(context: context)
        again.label = "a"
        try context.save()
        XCTAssertNotEqual(again.objectID, stored)
        XCTAssertEqual(try freshContext().fetch(FetchRequest<UPTag>()).map(\.objectID), [again.objectID])
    }

    // MARK: Failures leave the context as it was

    func testInsertMatchingTwoStoredObjectsIsRefused() throws {
        let a = try storeTag("a", shortcut: "1"), b = try storeTag("b", shortcut: "2")
        let context = trumpContext()
        let both = UPTag(context: context)
        both.label = "a"
        both.shortcut = "2"
        expectError(try context.save(), .constraintViolation) { error in
            XCTAssertEqual(error.entity, "UPTag")
            XCTAssertEqual(error.objectIDs, [both.objectID, a, b])
            XCTAssertTrue(error.message.contains("UPTag \(a.primaryKey ?? -1) and UPTag \(b.primaryKey ?? -1)"), error.message)
        }
        XCTAssertTrue(both.isInserted)
        XCTAssertTrue(both.objectID.isTemporary)
        both.shortcut = nil
        try context.save()
        XCTAssertEqual(both.objectID, a)
    }

    func testFailureMidSaveLeavesContextAndStoreUnchanged() throws {
        try storeTag("urgent", color: "red", uses: 3, tasks: ["a"])
        // Makes the save fail after the upsert's row was written, inside the transaction.
        try runRawSQL("CREATE TRIGGER boom BEFORE INSERT ON \"UPTask\" WHEN NEW.\"title\" = 'boom' "
                      + "BEGIN SELECT RAISE(ABORT, 'boom'); END", on: url)
        let context = trumpContext()
        let held = try storedTag("urgent", in: context)
        let version = held.version
        let duplicate = UPTag(context: context), other = UPTag(context: context)
        duplicate.label = "urgent"; duplicate.uses = 9
        other.label = "urgent"; other.uses = 8
        let task = UPTask(context: context)
        task.title = "t"
        task.tags = [duplicate]
        let boom = UPTask(context: context)
        boom.title = "boom"
        XCTAssertThrowsError(try context.save())
        // Gone before a new container opens the file: a store holding a trigger is refused.
        try runRawSQL("DROP TRIGGER boom", on: url)

        XCTAssertTrue(duplicate.isInserted && other.isInserted && task.isInserted && boom.isInserted)
        XCTAssertTrue(duplicate.objectID.isTemporary && other.objectID.isTemporary)
        XCTAssertTrue(duplicate.managedObjectContext === context && other.managedObjectContext === context)
        XCTAssertEqual(held.uses, 3)
        XCTAssertEqual(held.color, "red")
        XCTAssertEqual(held.version, version)
        XCTAssertFalse(held.hasChanges)
        XCTAssertTrue(task.tags == [duplicate])
        XCTAssertEqual(context.insertedObjects.count, 4)
        let check = try freshContext()
        XCTAssertEqual(try check.fetch(FetchRequest<UPTag>()).map(\.uses), [3])
        XCTAssertEqual(try check.fetch(FetchRequest<UPTask>()).map(\.title), ["a"])

        boom.title = "fine"
        try context.save()
        XCTAssertEqual(held.uses, 8, "the later insert won")
        XCTAssertNil(duplicate.managedObjectContext)
        XCTAssertNil(other.managedObjectContext)
        XCTAssertEqual(held.tasks.map(\.title).sorted(), ["a", "t"])
        let after = try freshContext()
        XCTAssertEqual(try after.fetch(FetchRequest<UPTag>()).map(\.uses), [8])
        XCTAssertEqual(try storedTag("urgent", in: after).tasks.map(\.title).sorted(), ["a", "t"])
    }

    func testErrorPolicyStillRefuses() throws {
        try storeTag("urgent")
        let context = container.newContext()
        let tag = UPTag(context: context)
        tag.label = "urgent"
        expectError(try context.save(), .constraintViolation)
        XCTAssertTrue(tag.isInserted)
    }

    // MARK: Observers

    func testControllerShowsOneRowAfterTheUpsert() throws {
        try storeTag("urgent", uses: 1)
        try storeTag("later", uses: 2)
        let context = trumpContext()
        let controller = FetchedResultsController(fetchRequest: FetchRequest<UPTag>(sortBy: [FetchSortDescriptor(\.label)]),
                                                  context: context)
        try controller.performFetch()
        let held = try storedTag("urgent", in: context)
        let duplicate = UPTag(context: context)
        duplicate.label = "urgent"
        duplicate.uses = 5
        context.processPendingChanges()
        XCTAssertEqual(controller.fetchedObjects.count, 3, "the pending insert shows")
        try context.save()
        XCTAssertEqual(controller.fetchedObjects.map(\.label), ["later", "urgent"])
        XCTAssertTrue(controller.fetchedObjects.last === held)
        XCTAssertEqual(held.uses, 5)
    }
}
