import PersistKitTestSupport
import Foundation
import XCTest
@testable import PersistKit

/// Every kind of rule, on every type that takes it.
final class AVRuled: ManagedObject {
    override class var entityName: String { "Ruled" }
    @Attribute(.minLength(1), .maxLength(1000)) var name: String
    @Attribute(.length(2...4)) var code: String?
    @Attribute(.pattern("[A-Z]{3}-[0-9]+")) var reference: String?
    @Attribute(.maxLength(4)) var thumbnail: Data?
    @Attribute(.range(0...10)) var rating = 5
    @Attribute(.minimum(0.5)) var weight: Double?
    @Attribute(.maximum(Int16(100))) var percent: Int16 = 0
    @Attribute(.range(Float(-1)...Float(1))) var balance: Float = 0
    @Attribute(.range(AVRuled.earliest...AVRuled.latest)) var due: Date?

    static let earliest = Date(timeIntervalSinceReferenceDate: 0)           // 2001-01-01
    static let latest = Date(timeIntervalSinceReferenceDate: 946_684_800)   // 2031-01-01
}

/// The same stored schema as AVRuled, without any rule.
final class AVPlain: ManagedObject {
    override class var entityName: String { "Ruled" }
    @Attribute var name: String
    @Attribute var code: String?
    @Attribute var reference: String?
    @Attribute var thumbnail: Data?
    @Attribute var rating = 5
    @Attribute var weight: Double?
    @Attribute var percent: Int16 = 0
    @Attribute var balance: Float = 0
    @Attribute var due: Date?
}

final class AVMinAboveMax: ManagedObject {
    @Attribute(.minimum(5), .maximum(1)) var value = 3
}

final class AVNegativeLength: ManagedObject {
    @Attribute(.maxLength(-1)) var text = ""
}

final class AVLengthsCrossed: ManagedObject {
    @Attribute(.minLength(3), .maxLength(2)) var text = "abc"
}

final class AVTwice: ManagedObject {
    @Attribute(.maxLength(3), .length(1...5)) var text = "abc"
}

final class AVBadPattern: ManagedObject {
    @Attribute(.pattern("([a-z]")) var text = "abc"
}

final class AVNaNBound: ManagedObject {
    @Attribute(.maximum(Double.nan)) var value = 0.0
}

/// Rules declared on `@Attribute` are carried in the model, checked at save with every problem
/// reported at once, and left out of the stored schema (version hash, model document).
final class AttributeValidationTests: XCTestCase {
    private func forEachStore(file: StaticString = #filePath, line: UInt = #line,
                              _ body: (PersistentContainer, StoreKind) throws -> Void) {
        for kind in StoreKind.allCases {
            let directory = TemporaryDirectory()
            do {
                try body(try makeContainer(kind, in: directory, entities: [AVRuled.self]), kind)
            } catch {
                XCTFail("[\(kind)] \(error)", file: file, line: line)
            }
        }
    }

    /// A valid object, saved; the tests then break one rule at a time.
    private func savedObject(_ context: ManagedObjectContext) throws -> AVRuled {
        let object = AVRuled(context: context)
        object.name = "fine"
        try context.save()
        return object
    }

    private func expectProblems(_ context: ManagedObjectContext, _ expected: [String], attribute: String? = nil,
                                file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try context.save(), file: file, line: line) { error in
            guard let error = error as? PersistError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(error.code, .validation, "\(error)", file: file, line: line)
            XCTAssertEqual(error.problems, expected, file: file, line: line)
            XCTAssertEqual(error.entity, "Ruled", file: file, line: line)
            if let attribute { XCTAssertEqual(error.attribute, attribute, file: file, line: line) }
        }
        context.rollback()
    }

    // MARK: Strings and data

    func testStringLengths() {
        forEachStore { container, _ in
            let context = container.newContext()
            let object = try savedObject(context)
            object.name = String(repeating: "x", count: 1_204)
            expectProblems(context, ["Ruled.name must be at most 1,000 characters (has 1,204)"], attribute: "name")
            object.name = ""
            expectProblems(context, ["Ruled.name must be at least 1 character (has 0)"], attribute: "name")
            object.code = "A"
            expectProblems(context, ["Ruled.code must be at least 2 characters (has 1)"])
            object.code = "ABCDE"
            expectProblems(context, ["Ruled.code must be at most 4 characters (has 5)"])
            object.name = String(repeating: "x", count: 1_000)
            object.code = "ABCD"
            try context.save()
        }
    }

    func testLengthCountsCharactersAsSwiftDoes() {
        forEachStore { container, _ in
            let context = container.newContext()
            let object = try savedObject(context)
            object.code = "e\u{301}\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"   // 2 characters, 8 scalars
            try context.save()
            object.code = "\u{1F1EB}\u{1F1F7}"   // one flag: 1 character
            expectProblems(context, ["Ruled.code must be at least 2 characters (has 1)"])
        }
    }

    func testDataLengthInBytes() {
        forEachStore { container, _ in
            let context = container.newContext()
            let object = try savedObject(context)
            object.thumbnail = Data([1, 2, 3, 4])
            try context.save()
            object.thumbnail = Data([1, 2, 3, 4, 5])
            expectProblems(context, ["Ruled.thumbnail must be at most 4 bytes (has 5)"], attribute: "thumbnail")
        }
    }

    func testPatternMatchesTheWholeValue() {
        forEachStore { container, _ in
            let context = container.newContext()
            let object = try savedObject(context)
            object.reference = "ABC-12"
            try context.save()
            for bad in ["ABC-12x", "xABC-12", "ABC-12\n", "abc-12", "ABC-"] {
                object.reference = bad
                expectProblems(context, ["Ruled.reference must match the pattern [A-Z]{3}-[0-9]+ (is \"\(bad)\")"])
            }
        }
    }

    // MARK: Numbers and dates

    func testNumberBounds() {
        forEachStore { container, _ in
            let context = container.newContext()
            let object = try savedObject(context)
            object.rating = 11
            expectProblems(context, ["Ruled.rating must be at most 10 (is 11)"], attribute: "rating")
            object.rating = -1
            expectProblems(context, ["Ruled.rating must be at least 0 (is -1)"])
            object.weight = 0.25
            expectProblems(context, ["Ruled.weight must be at least 0.5 (is 0.25)"])
            object.percent = 101
            expectProblems(context, ["Ruled.percent must be at most 100 (is 101)"])
            object.balance = 1.5
            expectProblems(context, ["Ruled.balance must be at most 1.0 (is 1.5)"])
            object.rating = 10
            object.weight = 0.5
            object.percent = 100
            object.balance = -1
            try context.save()
        }
    }

    func testDateBounds() {
        forEachStore { container, _ in
            let context = container.newContext()
            let object = try savedObject(context)
            object.due = AVRuled.latest
            try context.save()
            object.due = AVRuled.latest.addingTimeInterval(1)
            expectProblems(context, ["Ruled.due must be no later than 2031-01-01T00:00:00Z (is 2031-01-01T00:00:01Z)"])
            object.due = Date(timeIntervalSinceReferenceDate: -86_400)
            expectProblems(context, ["Ruled.due must be no earlier than 2001-01-01T00:00:00Z (is 2000-12-31T00:00:00Z)"])
        }
    }

    func testNilIsNotChecked() {
        forEachStore { container, _ in
            let context = container.newContext()
            let object = try savedObject(context)
            object.code = nil
            object.reference = nil
            object.thumbnail = nil
            object.weight = nil
            object.due = nil
            try context.save()
        }
    }

    // MARK: Reporting

    func testEveryProblemOfEveryObjectIsReportedAndNothingIsWritten() {
        forEachStore { container, kind in
            let context = container.newContext()
            let saved = try savedObject(context)
            saved.rating = 99
            let fresh = AVRuled(context: context)
            fresh.name = String(repeating: "y", count: 1_001)
            fresh.reference = "nope"
            XCTAssertThrowsError(try context.save()) { error in
                guard let error = error as? PersistError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.code, .validation)
                XCTAssertEqual(Set(error.problems), [
                    "Ruled.rating must be at most 10 (is 99)",
                    "Ruled.name must be at most 1,000 characters (has 1,001)",
                    "Ruled.reference must match the pattern [A-Z]{3}-[0-9]+ (is \"nope\")",
                ], "\(kind)")
                XCTAssertEqual(Set(error.objectIDs), [saved.objectID, fresh.objectID])
                XCTAssertNil(error.attribute, "problems with several keys")
                XCTAssertEqual(error.message, "Cannot save: 3 validation problems")
            }
            XCTAssertTrue(context.hasChanges)
            XCTAssertTrue(fresh.objectID.isTemporary)
            let stored = try container.newContext().fetch(FetchRequest<AVRuled>())
            XCTAssertEqual(stored.map(\.rating), [5], "\(kind): nothing written")
            saved.rating = 9
            fresh.name = "short"
            fresh.reference = "ABC-1"
            try context.save()
        }
    }

    func testASingleProblemIsTheMessage() {
        forEachStore { container, _ in
            let context = container.newContext()
            let object = try savedObject(context)
            object.rating = 12
            XCTAssertThrowsError(try context.save()) { error in
                XCTAssertEqual((error as? PersistError)?.message, "Cannot save: Ruled.rating must be at most 10 (is 12)")
                XCTAssertEqual((error as? PersistError)?.objectIDs, [object.objectID])
            }
        }
    }

    // MARK: The model

    func testRulesAreCarriedInTheAttributeDescriptions() throws {
        let entity = try XCTUnwrap(ManagedObjectModel(entities: [AVRuled.self]).entity(named: "Ruled"))
        let name = try XCTUnwrap(entity.attribute(named: "name")).validation
        XCTAssertEqual(name.minimumLength, 1)
        XCTAssertEqual(name.maximumLength, 1000)
        XCTAssertNil(name.minimum)
        let code = try XCTUnwrap(entity.attribute(named: "code")).validation
        XCTAssertEqual([code.minimumLength, code.maximumLength], [2, 4])
        XCTAssertEqual(entity.attribute(named: "reference")?.validation.pattern, "[A-Z]{3}-[0-9]+")
        let rating = try XCTUnwrap(entity.attribute(named: "rating")).validation
        XCTAssertEqual(rating.minimum, .integer(0))
        XCTAssertEqual(rating.maximum, .integer(10))
        XCTAssertEqual(entity.attribute(named: "due")?.validation.maximum, .real(946_684_800))
        XCTAssertTrue(try XCTUnwrap(ManagedObjectModel(entities: [AVPlain.self]).entity(named: "Ruled"))
            .attributes.allSatisfy(\.validation.isEmpty))
        XCTAssertNotEqual(entity.attribute(named: "name"),
                          try ManagedObjectModel(entities: [AVPlain.self]).entity(named: "Ruled")?.attribute(named: "name"))
    }

    /// Rules do not change what is stored: a store written before a rule was added (or changed)
    /// opens with the new code, and the committed model document stays as it was.
    func testRulesAreNotPartOfTheStoredSchema() throws {
        let ruled = try ManagedObjectModel(entities: [AVRuled.self])
        let plain = try ManagedObjectModel(entities: [AVPlain.self])
        XCTAssertEqual(ruled.versionHash, plain.versionHash)
        XCTAssertEqual(ruled.document, plain.document)

        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        do {
            let container = try PersistentContainer(model: plain, store: .sqlite(url))
            let context = container.newContext()
            let old = AVPlain(context: context)
            old.name = "written before the rules"
            old.rating = 50
            try context.save()
        }
        let container = try PersistentContainer(model: ruled, store: .sqlite(url))
        let context = container.newContext()
        let old = try XCTUnwrap(try context.fetch(FetchRequest<AVRuled>()).first)
        XCTAssertEqual(old.rating, 50, "a stored value is read as it is")
        old.name = "changed"
        expectProblems(context, ["Ruled.rating must be at most 10 (is 50)"])
    }

    func testBadDeclarationsAreModelErrors() {
        let cases: [(ManagedObject.Type, String, String)] = [
            (AVMinAboveMax.self, "value", "minimum (5) above its maximum (1)"),
            (AVNegativeLength.self, "text", "negative length bound (-1)"),
            (AVLengthsCrossed.self, "text", "minimum length (3) above its maximum length (2)"),
            (AVTwice.self, "text", "declares its maximum length twice"),
            (AVBadPattern.self, "text", "pattern that is not a regular expression: ([a-z]"),
            (AVNaNBound.self, "value", "NaN bound"),
        ]
        for (objectClass, attribute, text) in cases {
            XCTAssertThrowsError(try ManagedObjectModel(entities: [objectClass]), "\(objectClass)") { error in
                guard let error = error as? PersistError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.code, .invalidModel)
                XCTAssertEqual(error.entity, objectClass.entityName)
                XCTAssertEqual(error.attribute, attribute)
                XCTAssertTrue(error.message.contains(text), "\(objectClass): \(error.message)")
            }
        }
    }
}
