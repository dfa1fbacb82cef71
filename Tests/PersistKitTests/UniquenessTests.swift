import PersistKitTestSupport
import Foundation
import XCTest
@testable import PersistKit

/// `@Attribute(.unique)`: a one-key uniqueness constraint.
final class UQTag: ManagedObject {
    @Attribute(.unique) var label: String
    @Attribute(.unique) var shortcut: String?
    @Attribute var uses = 0
}

/// The same schema as UQTag, said with the class's constraints.
final class UQTagByClass: ManagedObject {
    override class var entityName: String { "UQTag" }
    override class var uniquenessConstraints: [[String]] { [["label"], ["shortcut"]] }
    @Attribute var label: String
    @Attribute var shortcut: String?
    @Attribute var uses = 0
}

/// A compound constraint: a first name may repeat, a first and last name together may not.
final class UQPerson: ManagedObject {
    override class var uniquenessConstraints: [[String]] { [["first", "last"]] }
    @Attribute var first: String
    @Attribute var last: String?
    @Attribute var born: Int = 0
}

/// Uniqueness is checked before writing, against the save's other objects and the stored rows,
/// and a collision names the entity, the keys and both objects.
final class UniquenessTests: XCTestCase {
    private let entities: [ManagedObject.Type] = [Account.self, UQTag.self, UQPerson.self]

    private func forEachStore(file: StaticString = #filePath, line: UInt = #line,
                              _ body: (PersistentContainer, StoreKind) throws -> Void) {
        for kind in StoreKind.allCases {
            let directory = TemporaryDirectory()
            do {
                try body(try makeContainer(kind, in: directory, entities: entities), kind)
            } catch {
                XCTFail("[\(kind)] \(error)", file: file, line: line)
            }
        }
    }

    private func expectViolation<T>(_ body: @autoclosure () throws -> T, _ message: String = "",
                                    file: StaticString = #filePath, line: UInt = #line,
                                    _ check: (PersistError) -> Void) {
        XCTAssertThrowsError(try body(), message, file: file, line: line) { error in
            guard let error = error as? PersistError else {
                return XCTFail("not a PersistError: \(error). \(message)", file: file, line: line)
            }
            XCTAssertEqual(error.code, .constraintViolation, "\(message): \(error)", file: file, line: line)
            check(error)
        }
    }

    private func accountEmails(_ container: PersistentContainer) throws -> [String] {
        try container.newContext().fetch(FetchRequest<Account>(sortBy: [FetchSortDescriptor(\.email)])).map(\.email)
    }

    // MARK: Against stored rows

    func testCollisionWithAStoredRowNamesEntityKeyValueAndBothObjects() {
        forEachStore { container, kind in
            let context = container.newContext()
            let first = Account(context: context)
            first.email = "a@example.com"
            try context.save()
            let key = try XCTUnwrap(first.objectID.primaryKey)

            let second = Account(context: context)
            second.email = "a@example.com"
            expectViolation(try context.save(), "\(kind)") { error in
                XCTAssertEqual(error.entity, "Account")
                XCTAssertEqual(error.attribute, "email")
                XCTAssertEqual(error.objectIDs, [second.objectID, first.objectID], "the one saved, then the one holding the value")
                XCTAssertEqual(error.message, "Account.email \"a@example.com\" is already used by Account \(key)")
                XCTAssertEqual(error.reason, .constraintViolation(entity: "Account", keys: ["email"],
                                                                  objects: [second.objectID, first.objectID]))
                XCTAssertNil(error.sql, "found by the check, before any write")
            }
            XCTAssertTrue(second.isInserted, "\(kind): the context is unchanged")
            XCTAssertEqual(try accountEmails(container), ["a@example.com"])
            second.email = "b@example.com"
            try context.save()
        }
    }

    func testRowSavedByAnotherContextIsFound() {
        forEachStore { container, kind in
            let other = container.newContext()
            let saved = Account(context: other)
            saved.email = "shared@example.com"
            try other.save()

            let context = container.newContext()
            let mine = Account(context: context)
            mine.email = "shared@example.com"
            expectViolation(try context.save(), "\(kind)") { error in
                XCTAssertEqual(error.objectIDs, [mine.objectID, saved.objectID])
            }
        }
    }

    func testRenamingOntoAStoredValue() {
        forEachStore { container, kind in
            let context = container.newContext()
            let a = Account(context: context), b = Account(context: context)
            a.email = "a@example.com"
            b.email = "b@example.com"
            try context.save()
            b.email = "a@example.com"
            expectViolation(try context.save(), "\(kind)") { error in
                XCTAssertEqual(error.objectIDs, [b.objectID, a.objectID])
                XCTAssertEqual(error.message, "Account.email \"a@example.com\" is already used by Account \(a.objectID.primaryKey ?? -1)")
            }
            XCTAssertEqual(try accountEmails(container), ["a@example.com", "b@example.com"])
        }
    }

    // MARK: Against the save's other objects

    func testPendingInsertsCollideWithEachOther() {
        forEachStore { container, kind in
            let context = container.newContext()
            let a = Account(context: context), b = Account(context: context)
            a.email = "same@example.com"
            b.email = "same@example.com"
            expectViolation(try context.save(), "\(kind)") { error in
                XCTAssertEqual(error.entity, "Account")
                XCTAssertEqual(error.attribute, "email")
                XCTAssertEqual(Set(error.objectIDs), [a.objectID, b.objectID])
                XCTAssertEqual(error.objectIDs.count, 2)
                XCTAssertTrue(error.objectIDs.allSatisfy(\.isTemporary))
                XCTAssertEqual(error.message, "Account.email \"same@example.com\" is already used by another new Account in this save")
            }
            XCTAssertEqual(try accountEmails(container), [])
        }
    }

    func testAnUpdateAndAnInsertTakingTheSameValue() {
        forEachStore { container, kind in
            let context = container.newContext()
            let a = Account(context: context)
            a.email = "a@example.com"
            try context.save()
            a.email = "new@example.com"
            let b = Account(context: context)
            b.email = "new@example.com"
            expectViolation(try context.save(), "\(kind)") { error in
                XCTAssertEqual(error.objectIDs, [b.objectID, a.objectID])
                XCTAssertEqual(error.message,
                               "Account.email \"new@example.com\" is already used by Account \(a.objectID.primaryKey ?? -1) (changed in this save)")
            }
        }
    }

    func testEveryCollisionIsListed() {
        forEachStore { container, kind in
            let context = container.newContext()
            let stored = Account(context: context)
            stored.email = "x@example.com"
            try context.save()
            let one = Account(context: context), two = Account(context: context), three = Account(context: context)
            one.email = "x@example.com"
            two.email = "y@example.com"
            three.email = "y@example.com"
            expectViolation(try context.save(), "\(kind)") { error in
                XCTAssertEqual(error.problems.count, 2, "\(error.problems)")
                XCTAssertEqual(Set(error.objectIDs), [stored.objectID, one.objectID, two.objectID, three.objectID])
                XCTAssertTrue(error.message.contains("and 1 more uniqueness violation"), error.message)
            }
        }
    }

    // MARK: Values given up in the same save

    func testAValueGivenUpInTheSameSaveCanBeTaken() {
        forEachStore { container, kind in
            let context = container.newContext()
            let old = Account(context: context), renamed = Account(context: context)
            old.email = "deleted@example.com"
            renamed.email = "renamed@example.com"
            try context.save()

            context.delete(old)
            let replacement = Account(context: context)
            replacement.email = "deleted@example.com"
            renamed.email = "other@example.com"
            let taker = Account(context: context)
            taker.email = "renamed@example.com"
            try context.save()
            XCTAssertEqual(try accountEmails(container), ["deleted@example.com", "other@example.com", "renamed@example.com"], "\(kind)")
        }
    }

    // MARK: @Attribute(.unique) and compound constraints

    func testUniqueOptionIsAOneKeyConstraint() throws {
        let byOption = try ManagedObjectModel(entities: [UQTag.self])
        let byClass = try ManagedObjectModel(entities: [UQTagByClass.self])
        XCTAssertEqual(byOption.entity(named: "UQTag")?.uniquenessConstraints, [["label"], ["shortcut"]])
        XCTAssertEqual(byOption.versionHash, byClass.versionHash, "the same stored schema")
        XCTAssertEqual(byOption.document, byClass.document)
    }

    func testUniqueOptionCollisions() {
        forEachStore { container, kind in
            let context = container.newContext()
            let tag = UQTag(context: context)
            tag.label = "home"
            tag.shortcut = "h"
            let free = UQTag(context: context), other = UQTag(context: context)
            free.label = "work"
            other.label = "errands"   // nil shortcuts never collide
            try context.save()

            let copy = UQTag(context: context)
            copy.label = "garden"
            copy.shortcut = "h"
            expectViolation(try context.save(), "\(kind)") { error in
                XCTAssertEqual(error.entity, "UQTag")
                XCTAssertEqual(error.attribute, "shortcut")
                XCTAssertEqual(error.objectIDs, [copy.objectID, tag.objectID])
            }
        }
    }

    func testCompoundConstraintNamesEveryKey() {
        forEachStore { container, kind in
            let context = container.newContext()
            let ann = UQPerson(context: context)
            ann.first = "Ann"
            ann.last = "Lee"
            let annOther = UQPerson(context: context)
            annOther.first = "Ann"
            annOther.last = "Ng"
            let noLast = UQPerson(context: context), noLastAgain = UQPerson(context: context)
            noLast.first = "Bo"
            noLastAgain.first = "Bo"   // a nil key: no collision, as in SQLite
            try context.save()

            let twin = UQPerson(context: context)
            twin.first = "Ann"
            twin.last = "Lee"
            expectViolation(try context.save(), "\(kind)") { error in
                XCTAssertEqual(error.entity, "UQPerson")
                XCTAssertEqual(error.attribute, "first, last")
                XCTAssertEqual(error.reason, .constraintViolation(entity: "UQPerson", keys: ["first", "last"],
                                                                  objects: [twin.objectID, ann.objectID]))
                XCTAssertEqual(error.message,
                               "UQPerson (first, last) = (\"Ann\", \"Lee\") is already used by UQPerson \(ann.objectID.primaryKey ?? -1)")
            }
        }
    }

    // MARK: What counts as the same value

    func testTextIsComparedByBytesAsSQLiteDoes() {
        forEachStore { container, kind in
            let context = container.newContext()
            let composed = Account(context: context), decomposed = Account(context: context)
            composed.email = "caf\u{E9}@example.com"
            decomposed.email = "cafe\u{301}@example.com"   // equal in Swift, distinct to SQLite
            XCTAssertEqual(composed.email, decomposed.email)
            try context.save()
            let cased = Account(context: context)
            cased.email = "CAF\u{C9}@example.com"
            try context.save()
            XCTAssertEqual(try accountEmails(container).count, 3, "\(kind)")
        }
    }

    func testOnlyTheConstrainedKeysCount() {
        forEachStore { container, kind in
            let context = container.newContext()
            let one = UQPerson(context: context)
            one.first = "x"
            one.last = "y"
            one.born = 1
            try context.save()
            let again = UQPerson(context: context)
            again.first = "x"
            again.last = "y"
            again.born = 2
            expectViolation(try context.save(), "\(kind): born is not part of the constraint") { _ in }
        }
    }

    // MARK: Many rows

    /// Few new values against many rows are searched for (in lists of up to 500 bound
    /// values); many against few are found by reading the rows: both find exactly the same.
    func testLookupsAcrossManyRowsFindExactlyTheCollisions() {
        forEachStore { container, kind in
            let stored = 2_000
            let context = container.newContext()
            for n in 0..<stored {
                let account = Account(context: context)
                account.email = "user\(n)@example.com"
                let person = UQPerson(context: context)
                person.first = "first\(n)"
                person.last = "last\(n)"
            }
            try context.save()
            // 600 new values: searched (2,000 rows is more than 3 per value), in two and three
            // lists. 1,000: the rows are read.
            for newCount in [600, 1_000] {
                try expectExactCollisions(context, stored: stored, newCount: newCount, "\(kind), \(newCount) new")
                context.rollback()
            }
        }
    }

    /// Saves `newCount` new accounts and people, of which the first and last accounts and the
    /// middle person take stored values, and checks that exactly those collisions are reported.
    private func expectExactCollisions(_ context: ManagedObjectContext, stored: Int, newCount: Int, _ label: String) throws {
        var expected: Set<String> = []
        for n in 0..<newCount {
            let account = Account(context: context)
            let collides = n == 0 || n == newCount - 1
            account.email = collides ? "user\(stored - 1 - n)@example.com" : "new\(n)@example.com"
            if collides { expected.insert(account.email) }
            let person = UQPerson(context: context)
            person.first = "first\(n)"
            person.last = n == newCount / 2 ? "last\(n)" : "other\(n)"
        }
        expectViolation(try context.save(), label) { error in
            XCTAssertEqual(error.problems.count, 3, "\(label): \(error.problems)")
            let accounts = error.problems.filter { $0.hasPrefix("Account.email") }
            XCTAssertEqual(Set(accounts.compactMap { $0.split(separator: "\"").dropFirst().first.map(String.init) }), expected, label)
            XCTAssertEqual(error.problems.filter { $0.hasPrefix("UQPerson (first, last) = (\"first\(newCount / 2)\"") }.count, 1, label)
            XCTAssertEqual(error.objectIDs.count, 6, label)
        }
    }

    // MARK: Merge policy

    /// `.objectTrump` turns an insert's collision into an upsert (UpsertTests has the rest);
    /// an update's collision is still refused, and a stale object's values, unique ones
    /// included, are still written over the store's.
    func testObjectTrumpUpsertsInsertsAndStillRefusesUpdates() {
        forEachStore { container, kind in
            let one = container.newContext()
            let stored = Account(context: one)
            stored.email = "a@example.com"
            try one.save()

            let two = container.newContext()
            two.mergePolicy = .objectTrump
            let duplicate = Account(context: two)
            duplicate.email = "a@example.com"
            try two.save()
            XCTAssertEqual(duplicate.objectID, stored.objectID, "\(kind): the insert updated the stored object")
            XCTAssertEqual(try accountEmails(container), ["a@example.com"])

            let other = Account(context: two)
            other.email = "b@example.com"
            try two.save()
            other.email = "a@example.com"
            expectViolation(try two.save(), "\(kind)") { error in
                XCTAssertEqual(error.objectIDs, [other.objectID, stored.objectID])
            }
            other.email = "b@example.com"

            one.processPendingChanges()
            stored.displayName = "changed in one"
            try one.save()
            duplicate.email = "c@example.com"   // two's object for the row, stale now
            try two.save()
            let check = try XCTUnwrap(container.newContext().existingObject(with: stored.objectID) as? Account)
            XCTAssertEqual(check.email, "c@example.com", "\(kind)")
            XCTAssertEqual(check.displayName, "changed in one")
        }
    }
}
