import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

// MARK: Entities only these tests use (prefixed AT so they clash with no other file's).

/// A Codable value holding a Date.
private struct ATEvent: Codable, Equatable, AttributeValue {
    var title: String
    var at: Date
}

private enum ATMood: String, AttributeValue {
    case calm, cheerful
}

private final class ATEventHolder: ManagedObject {
    @Attribute var event = ATEvent(title: "", at: Date(timeIntervalSince1970: 0))
    @Attribute var maybeEvent: ATEvent?
}

private final class ATMoody: ManagedObject {
    @Attribute var mood: ATMood = .calm
}

private final class ATDated: ManagedObject {
    @Attribute var when = Date(timeIntervalSince1970: 0)
}

// MARK: Helpers

/// One value for every attribute of `Everything`.
private struct EverythingValues {
    var label: String
    var bool = false
    var int = 0
    var int64: Int64 = 0
    var int32: Int32 = 0
    var int16: Int16 = 0
    var double = 0.0
    var float: Float = 0
    var string = ""
    var date = Date(timeIntervalSince1970: 0)
    var data = Data()
    var uuid = UUID()
    var url = URL(fileURLWithPath: "/")
    var priority = Priority.low
    var location = Location(latitude: 0, longitude: 0)
    var optionalBool: Bool?
    var optionalInt: Int?
    var optionalString: String?
    var optionalDate: Date?
    var optionalData: Data?
    var optionalUUID: UUID?
    var optionalURL: URL?
    var optionalPriority: Priority?
    var optionalLocation: Location?

    func apply(to object: Everything) {
        object.bool = bool
        object.int = int
        object.int64 = int64
        object.int32 = int32
        object.int16 = int16
        object.double = double
        object.float = float
        object.string = string
        object.date = date
        object.data = data
        object.uuid = uuid
        object.url = url
        object.priority = priority
        object.location = location
        object.optionalBool = optionalBool
        object.optionalInt = optionalInt
        object.optionalString = optionalString
        object.optionalDate = optionalDate
        object.optionalData = optionalData
        object.optionalUUID = optionalUUID
        object.optionalURL = optionalURL
        object.optionalPriority = optionalPriority
        object.optionalLocation = optionalLocation
    }
}

private func bytes(_ string: String?) -> [UInt8]? { string.map { Array($0.utf8) } }

/// Compares bit for bit where Swift's `==` would hide a difference (-0.0, NFC vs NFD).
private func assertStored(_ object: Everything, equals expected: EverythingValues, _ context: String,
                          file: StaticString = #filePath, line: UInt = #line) {
    let where_ = "\(expected.label) [\(context)]"
    XCTAssertEqual(object.bool, expected.bool, "bool \(where_)", file: file, line: line)
    XCTAssertEqual(object.int, expected.int, "int \(where_)", file: file, line: line)
    XCTAssertEqual(object.int64, expected.int64, "int64 \(where_)", file: file, line: line)
    XCTAssertEqual(object.int32, expected.int32, "int32 \(where_)", file: file, line: line)
    XCTAssertEqual(object.int16, expected.int16, "int16 \(where_)", file: file, line: line)
    XCTAssertEqual(object.double.bitPattern, expected.double.bitPattern,
                   "double \(where_): \(object.double) vs \(expected.double)", file: file, line: line)
    XCTAssertEqual(object.float.bitPattern, expected.float.bitPattern,
                   "float \(where_): \(object.float) vs \(expected.float)", file: file, line: line)
    XCTAssertEqual(bytes(object.string), bytes(expected.string), "string bytes \(where_)", file: file, line: line)
    XCTAssertEqual(object.date.timeIntervalSince1970.bitPattern, expected.date.timeIntervalSince1970.bitPattern,
                   "date \(where_): \(object.date.timeIntervalSince1970) vs \(expected.date.timeIntervalSince1970)", file: file, line: line)
    XCTAssertEqual(object.data, expected.data, "data \(where_)", file: file, line: line)
    XCTAssertEqual(object.uuid, expected.uuid, "uuid \(where_)", file: file, line: line)
    XCTAssertEqual(object.url.absoluteString, expected.url.absoluteString, "url \(where_)", file: file, line: line)
    XCTAssertEqual(object.priority, expected.priority, "priority \(where_)", file: file, line: line)
    XCTAssertEqual(object.location, expected.location, "location \(where_)", file: file, line: line)
    XCTAssertEqual(object.location.latitude.bitPattern, expected.location.latitude.bitPattern, "location.latitude \(where_)", file: file, line: line)
    XCTAssertEqual(object.optionalBool, expected.optionalBool, "optionalBool \(where_)", file: file, line: line)
    XCTAssertEqual(object.optionalInt, expected.optionalInt, "optionalInt \(where_)", file: file, line: line)
    XCTAssertEqual(bytes(object.optionalString), bytes(expected.optionalString), "optionalString \(where_)", file: file, line: line)
    XCTAssertEqual(object.optionalDate?.timeIntervalSince1970.bitPattern, expected.optionalDate?.timeIntervalSince1970.bitPattern,
                   "optionalDate \(where_)", file: file, line: line)
    XCTAssertEqual(object.optionalData, expected.optionalData, "optionalData \(where_)", file: file, line: line)
    XCTAssertEqual(object.optionalUUID, expected.optionalUUID, "optionalUUID \(where_)", file: file, line: line)
    XCTAssertEqual(object.optionalURL?.absoluteString, expected.optionalURL?.absoluteString, "optionalURL \(where_)", file: file, line: line)
    XCTAssertEqual(object.optionalPriority, expected.optionalPriority, "optionalPriority \(where_)", file: file, line: line)
    XCTAssertEqual(object.optionalLocation, expected.optionalLocation, "optionalLocation \(where_)", file: file, line: line)
}

private func samples() throws -> [EverythingValues] {
    let nfc = "caf\u{E9}"           // é as one scalar
    let nfd = "cafe\u{301}"         // e + combining acute
    var maximum = EverythingValues(label: "maximum")
    maximum.bool = true
    maximum.int = .max
    maximum.int64 = .max
    maximum.int32 = .max
    maximum.int16 = .max
    maximum.double = .greatestFiniteMagnitude
    maximum.float = .greatestFiniteMagnitude
    maximum.string = "straße İstanbul ÉCLAIR éclair 👩‍👩‍👧‍👦 🇫🇷 " + nfc
    maximum.date = Date(timeIntervalSince1970: 253_402_300_799.987_654)
    maximum.data = Data((0...255).map { UInt8($0) })
    maximum.uuid = UUID()
    maximum.url = try XCTUnwrap(URL(string: "https://user@example.com:8443/a%20b/c?q=1&r=x+y&s=%C3%A9#frag"))
    maximum.priority = .high
    maximum.location = Location(latitude: 89.999_999_999, longitude: -179.123_456_789_012_3)
    maximum.optionalBool = true
    maximum.optionalInt = .max
    maximum.optionalString = nfd
    maximum.optionalDate = Date(timeIntervalSinceReferenceDate: 1.5)
    maximum.optionalData = Data([0, 0, 0])
    maximum.optionalUUID = UUID()
    maximum.optionalURL = URL(fileURLWithPath: "/tmp/a b/ü.txt")
    maximum.optionalPriority = .normal
    maximum.optionalLocation = Location(latitude: 1e-300, longitude: 1e300)

    var minimum = EverythingValues(label: "minimum")
    minimum.int = .min
    minimum.int64 = .min
    minimum.int32 = .min
    minimum.int16 = .min
    minimum.double = -1e-308
    minimum.float = -.greatestFiniteMagnitude
    minimum.string = ""
    minimum.date = Date(timeIntervalSince1970: -62_135_596_800)
    minimum.data = Data()
    minimum.uuid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    minimum.url = try XCTUnwrap(URL(string: "mailto:someone@example.com"))
    minimum.priority = .low
    minimum.location = Location(latitude: -0.0, longitude: 0)

    var special = EverythingValues(label: "special")
    special.double = .infinity
    special.float = -.infinity
    special.string = nfd
    special.date = .distantPast
    special.uuid = UUID()
    special.optionalBool = false
    special.optionalInt = 0
    special.optionalString = ""
    special.optionalDate = Date(timeIntervalSince1970: 0)
    special.optionalData = Data()
    special.optionalPriority = .low
    special.optionalLocation = Location(latitude: 0, longitude: 0)

    var tiny = EverythingValues(label: "tiny")
    tiny.double = -.infinity
    tiny.float = .leastNonzeroMagnitude
    tiny.int = -1
    tiny.int64 = Int64(1) << 53 + 1
    tiny.int32 = -1
    tiny.int16 = -1
    tiny.string = "a\u{0}b\u{0}" + String(repeating: "ß", count: 50_000)
    tiny.date = .distantFuture
    tiny.data = Data(repeating: 0xAB, count: 1_000_000)

    var fractions = EverythingValues(label: "fractions")
    fractions.double = .leastNonzeroMagnitude
    fractions.float = 0.1
    fractions.int = 1
    fractions.string = "\u{FEFF}bom \r\n tab\t quote\" apostrophe' backslash\\ percent% underscore_"
    fractions.date = Date(timeIntervalSince1970: 0.1)
    fractions.optionalDate = Date(timeIntervalSince1970: -0.000_001)

    var big = EverythingValues(label: "big")
    big.double = 9_007_199_254_740_992   // 2^53: a double with no fraction
    big.float = 16_777_216
    big.string = "İ".lowercased() + "ǅ" + "\u{10FFFF}"
    big.date = Date(timeIntervalSince1970: 1_700_000_000)
    big.int64 = -9_007_199_254_740_993
    return [maximum, minimum, special, tiny, fractions, big]
}

private func rawSQL(_ container: PersistentContainer, _ sql: String) throws {
    try container.store.withConnection { try $0.execute(sql) }
}

// MARK: Tests

final class AttributeTypesTests: XCTestCase {

    func testEveryTypeRoundTrips() throws {
        let values = try samples()
        forEachStore { container, kind in
            let context = container.newContext()
            var objects: [Everything] = []
            for sample in values {
                let object = Everything(context: context)
                sample.apply(to: object)
                assertStored(object, equals: sample, "\(kind), before save")
                objects.append(object)
            }
            try context.save()
            for (object, sample) in zip(objects, values) {
                assertStored(object, equals: sample, "\(kind), after save, same context")
            }

            let reader = container.newContext()
            for (object, sample) in zip(objects, values) {
                let fetched = try XCTUnwrap(try reader.existingObject(with: object.objectID) as? Everything)
                XCTAssertFalse(fetched === object)
                assertStored(fetched, equals: sample, "\(kind), fetched in a second context")
            }
            let all = try reader.fetch(FetchRequest<Everything>())
            XCTAssertEqual(all.count, values.count)

            // Fetching by value finds the extremes too.
            XCTAssertEqual(try reader.count(for: FetchRequest<Everything>(predicate: \.int64 == .min)), 1)
            XCTAssertEqual(try reader.count(for: FetchRequest<Everything>(predicate: \.int16 == .max)), 1)
            XCTAssertEqual(try reader.count(for: FetchRequest<Everything>(predicate: \.double == .infinity)), 1)
            XCTAssertEqual(try reader.count(for: FetchRequest<Everything>(predicate: \.optionalString == nil)), 4)
            XCTAssertEqual(try reader.count(for: FetchRequest<Everything>(predicate: \.priority == .high)), 1)
            XCTAssertEqual(try reader.count(for: FetchRequest<Everything>(predicate: \.uuid == values[0].uuid)), 1)

            // NFC and NFD are different text: each finds only itself.
            XCTAssertEqual(try reader.count(for: FetchRequest<Everything>(predicate: \.string == "cafe\u{301}")), 1)
            XCTAssertEqual(try reader.count(for: FetchRequest<Everything>(predicate: \.optionalString == "cafe\u{301}")), 1)
        }
    }

    /// -0.0 is a value of its own (1 / -0.0 is -infinity): it must come back with its sign,
    /// whether it replaces 0.0 or another value, in the same context and after a fetch.
    func testNegativeZeroKeepsItsSign() {
        forEachStore { container, kind in
            let context = container.newContext()
            let fromZero = Everything(context: context)      // starts at 0.0
            fromZero.double = -0.0
            fromZero.float = -0.0
            fromZero.optionalDate = Date(timeIntervalSinceReferenceDate: -0.0)
            XCTAssertEqual(fromZero.double.sign, .minus, "\(kind): -0.0 set over 0.0 reads back as -0.0")
            XCTAssertEqual(fromZero.float.sign, .minus, "\(kind): Float -0.0 set over 0.0 reads back as -0.0")
            let fromOne = Everything(context: context)
            fromOne.double = 1
            fromOne.float = 1
            fromOne.double = -0.0
            fromOne.float = -0.0
            XCTAssertEqual(fromOne.double.sign, .minus, "\(kind): -0.0 set over 1.0 reads back as -0.0")
            try context.save()

            let reader = container.newContext()
            let one = try XCTUnwrap(try reader.existingObject(with: fromOne.objectID) as? Everything)
            XCTAssertEqual(one.double.sign, .minus, "\(kind): -0.0 survives the store")
            XCTAssertEqual(one.float.sign, .minus, "\(kind): Float -0.0 survives the store")
            let zero = try XCTUnwrap(try reader.existingObject(with: fromZero.objectID) as? Everything)
            XCTAssertEqual(zero.optionalDate?.timeIntervalSinceReferenceDate.sign, .minus, "\(kind): a -0.0 date survives the store")
        }
    }

    /// A `Date` is a number of seconds since 2001: any of them must come back equal (`==`),
    /// not only the ones that survive a conversion to seconds since 1970 and back.
    func testDatesRoundTripExactly() throws {
        let dates = [0.1, -0.3, 123_456_789.123_456, 750_000_000.987_654_321, 1e-7, 86_399.999_999]
            .map { Date(timeIntervalSinceReferenceDate: $0) }
        for kind in StoreKind.allCases {
            let directory = TemporaryDirectory()
            let container = try makeContainer(kind, in: directory, entities: [ATDated.self])
            let context = container.newContext()
            var holders: [ATDated] = []
            for date in dates {
                let holder = ATDated(context: context)
                holder.when = date
                XCTAssertEqual(holder.when, date, "\(kind): \(date.timeIntervalSinceReferenceDate) before save")
                holders.append(holder)
            }
            try context.save()
            let reader = container.newContext()
            for (saved, date) in zip(holders, dates) {
                let holder = try XCTUnwrap(try reader.existingObject(with: saved.objectID) as? ATDated)
                XCTAssertEqual(holder.when, date,
                               "\(kind): \(date.timeIntervalSinceReferenceDate) came back as \(holder.when.timeIntervalSinceReferenceDate)")
            }
        }
    }

    /// A Codable value with a Date inside reads back as it was set, in memory and after a fetch.
    func testCodableValueWithADateRoundTrips() throws {
        let event = ATEvent(title: "launch", at: Date(timeIntervalSince1970: 1_700_000_000.25))
        for kind in StoreKind.allCases {
            let directory = TemporaryDirectory()
            let container = try makeContainer(kind, in: directory, entities: [ATEventHolder.self])
            let context = container.newContext()
            let holder = ATEventHolder(context: context)
            holder.event = event
            holder.maybeEvent = event
            XCTAssertEqual(holder.event, event, "\(kind): reads back as set, before save")
            XCTAssertEqual(holder.maybeEvent, event, "\(kind): optional reads back as set, before save")
            try context.save()
            let reader = container.newContext()
            let fetched = try reader.fetch(FetchRequest<ATEventHolder>())
            XCTAssertEqual(fetched.first?.event, event, "\(kind): after a fetch")
            XCTAssertEqual(fetched.first?.maybeEvent, event, "\(kind): optional after a fetch")
        }
    }

    /// An unknown raw value of a String enum, like one of an Int enum, is a type mismatch.
    func testUnknownStringEnumRawValueIsATypeMismatch() throws {
        for kind in StoreKind.allCases {
            let directory = TemporaryDirectory()
            let container = try makeContainer(kind, in: directory, entities: [ATMoody.self])
            let context = container.newContext()
            let holder = ATMoody(context: context)
            holder.mood = .cheerful
            try context.save()
            XCTAssertEqual(try container.newContext().fetch(FetchRequest<ATMoody>()).first?.mood, .cheerful, "\(kind)")
            try rawSQL(container, #"UPDATE "ATMoody" SET "mood" = 'furious'"#)
            expectError(try container.newContext().fetch(FetchRequest<ATMoody>()), .typeMismatch, "\(kind): mood = 'furious'") {
                XCTAssertEqual($0.entity, "ATMoody")
                XCTAssertEqual($0.attribute, "mood")
            }
        }
    }

    func testStoredRepresentation() throws {
        forEachStore { container, kind in
            let context = container.newContext()
            let object = Everything(context: context)
            object.uuid = UUID()
            object.date = Date(timeIntervalSince1970: 12.5)
            object.priority = .high
            object.location = Location(latitude: 1, longitude: 2)
            object.url = URL(fileURLWithPath: "/tmp/x", isDirectory: false)   // whatever /tmp/x is on this machine
            try context.save()
            try container.store.withConnection { connection in
                XCTAssertEqual(try connection.singleText(#"SELECT typeof("uuid") || ':' || length("uuid") FROM "Everything""#), "blob:16", "\(kind)")
                XCTAssertEqual(try connection.singleText(#"SELECT typeof("date") FROM "Everything""#), "real", "\(kind)")
                XCTAssertEqual(try connection.singleInt(#"SELECT "priority" FROM "Everything""#), Int64(Priority.high.rawValue), "\(kind)")
                XCTAssertEqual(try connection.singleText(#"SELECT "location" FROM "Everything""#), #"{"latitude":1,"longitude":2}"#, "\(kind)")
                XCTAssertEqual(try connection.singleText(#"SELECT "url" FROM "Everything""#), "file:///tmp/x", "\(kind)")
                XCTAssertEqual(try connection.singleText(#"SELECT typeof("optionalInt") FROM "Everything""#), "null", "\(kind)")
                XCTAssertEqual(try connection.singleText(#"SELECT typeof("data") || ':' || length("data") FROM "Everything""#), "blob:0", "\(kind)")
            }
        }
    }

    func testNaNIsAValidationErrorNotANull() {
        forEachStore { container, kind in
            let context = container.newContext()
            let object = Everything(context: context)
            object.double = .nan
            expectError(try context.save(), .validation, "\(kind): NaN double") {
                XCTAssertTrue($0.description.contains("double"), $0.description)
                XCTAssertEqual($0.entity, "Everything")
                XCTAssertEqual($0.objectIDs, [object.objectID])
            }
            XCTAssertTrue(object.isInserted, "the failed save changed nothing")
            XCTAssertTrue(object.double.isNaN)
            XCTAssertEqual(try container.newContext().count(for: FetchRequest<Everything>()), 0, "nothing stored")

            object.double = 1
            object.float = .nan
            expectError(try context.save(), .validation, "\(kind): NaN float") {
                XCTAssertTrue($0.description.contains("float"), $0.description)
            }
            object.float = 1
            object.date = Date(timeIntervalSince1970: .nan)
            expectError(try context.save(), .validation, "\(kind): NaN date")
            object.date = Date(timeIntervalSince1970: 0)
            object.location = Location(latitude: .nan, longitude: 0)
            expectError(try context.save(), .validation, "\(kind): NaN inside a Codable value") {
                XCTAssertTrue($0.description.contains("location"), $0.description)
            }
            object.location = Location(latitude: 1, longitude: 1)
            try object.setValue(Double.nan, forKey: "double")
            expectError(try context.save(), .validation, "\(kind): NaN through setValue")
            object.double = 2
            try context.save()

            // NaN in an optional attribute: still not silently stored as nil.
            let task = TestTask(context: context)
            task.name = "estimate"
            task.estimate = .nan
            expectError(try context.save(), .validation, "\(kind): NaN optional double") {
                XCTAssertTrue($0.description.contains("estimate"), $0.description)
            }
            task.estimate = nil
            try context.save()

            // An update to NaN leaves the stored value as it was.
            object.double = .nan
            expectError(try context.save(), .validation, "\(kind): update to NaN")
            XCTAssertTrue(object.isUpdated)
            let stored = try XCTUnwrap(try container.newContext().fetch(FetchRequest<Everything>()).first)
            XCTAssertEqual(stored.double, 2)
        }
    }

    /// Setting a valid value after one that could not be encoded clears the problem, even when
    /// the valid value equals the stored one (the failed set never changed the storage).
    func testFixingAnUnencodableValueClearsTheProblem() {
        forEachStore { container, kind in
            let context = container.newContext()
            let object = Everything(context: context)
            object.location = Location(latitude: .nan, longitude: 0)
            expectError(try context.save(), .validation, "\(kind): NaN inside a Codable value")
            object.location = Location(latitude: 0, longitude: 0)   // the value it still holds
            XCTAssertNoThrow(try context.save(), "\(kind): the problem was fixed")
            XCTAssertEqual(try container.newContext().count(for: FetchRequest<Everything>()), 1, "\(kind)")
        }
    }

    /// A saved object given a value that cannot be encoded: the save must refuse, not drop the
    /// assignment silently because the stored value did not change.
    func testUnencodableValueOnASavedObjectFailsTheSave() {
        forEachStore { container, kind in
            let context = container.newContext()
            let object = Everything(context: context)
            try context.save()
            object.optionalLocation = Location(latitude: .infinity, longitude: 0)
            expectError(try context.save(), .validation, "\(kind): infinity inside a Codable value") {
                XCTAssertTrue($0.description.contains("optionalLocation"), $0.description)
            }
            object.optionalLocation = nil
            XCTAssertNoThrow(try context.save(), "\(kind): back to nil, nothing to save")
        }
    }

    func testValuesThatDoNotFitTheDeclaredTypeAreTypeMismatches() {
        // (attribute, a value written with raw SQL, the valid value to put back)
        let cases: [(String, String, String)] = [
            ("int", "'abc'", "0"),
            ("int", "1.5", "0"),
            ("int", "x'01'", "0"),
            ("int64", "1e20", "0"),
            ("int32", "2147483648", "0"),
            ("int32", "-2147483649", "0"),
            ("int16", "40000", "0"),
            ("int16", "-32769", "0"),
            ("bool", "'yes'", "0"),
            ("double", "'abc'", "0.0"),
            ("float", "x'00'", "0.0"),
            ("date", "'yesterday'", "0.0"),
            ("string", "x'00ff'", "''"),
            ("data", "'text'", "x''"),
            ("uuid", "x'0102'", "zeroblob(16)"),
            ("uuid", "'3F2504E0-4F89-11D3-9A0C-0305E82C3301'", "zeroblob(16)"),
            ("url", "''", "'file:///'"),
            ("url", "'http://[::1'", "'file:///'"),
            ("priority", "7", "0"),
            ("priority", "-1", "0"),
            ("priority", "'high'", "0"),
            ("location", "'not json'", #"'{"latitude":0,"longitude":0}'"#),
            ("location", #"'{"latitude":"north","longitude":0}'"#, #"'{"latitude":0,"longitude":0}'"#),
            ("location", "'[]'", #"'{"latitude":0,"longitude":0}'"#),
            ("location", "12", #"'{"latitude":0,"longitude":0}'"#),
            ("optionalInt", "'many'", "NULL"),
            ("optionalPriority", "9", "NULL"),
            ("optionalLocation", "'{'", "NULL"),
            ("optionalUUID", "'not a uuid'", "NULL"),
            ("optionalURL", "''", "NULL"),
            ("optionalDate", "'noon'", "NULL"),
        ]
        forEachStore { container, kind in
            let context = container.newContext()
            let object = Everything(context: context)
            object.string = "row"
            try context.save()
            let id = object.objectID

            for (attribute, bad, good) in cases {
                try rawSQL(container, #"UPDATE "Everything" SET "\#(attribute)" = \#(bad)"#)
                let label = "\(kind): \(attribute) = \(bad)"
                expectError(try container.newContext().fetch(FetchRequest<Everything>()), .typeMismatch, label) {
                    XCTAssertEqual($0.entity, "Everything", label)
                    XCTAssertEqual($0.attribute, attribute, label)
                    XCTAssertTrue($0.description.contains("Everything"), "\(label): \($0.description)")
                    XCTAssertTrue($0.description.contains(attribute), "\(label): \($0.description)")
                }
                expectError(try container.newContext().existingObject(with: id), .typeMismatch, "\(label), by ID")
                try rawSQL(container, #"UPDATE "Everything" SET "\#(attribute)" = \#(good)"#)
                XCTAssertEqual(try container.newContext().fetch(FetchRequest<Everything>()).count, 1, "\(label), repaired")
            }
        }
    }

    /// A NULL where the model says the attribute is required (the table's NOT NULL dropped
    /// behind PersistKit's back).
    func testNullInANonOptionalAttributeIsATypeMismatch() {
        forEachStore { container, kind in
            let context = container.newContext()
            let object = Everything(context: context)
            object.string = "row"
            try context.save()
            try rawSQL(container, #"""
                ALTER TABLE "Everything" RENAME TO "Everything_old";
                CREATE TABLE "Everything" AS SELECT * FROM "Everything_old";
                DROP TABLE "Everything_old";
                """#)
            XCTAssertEqual(try container.newContext().fetch(FetchRequest<Everything>()).first?.string, "row", "\(kind): the copy reads fine")
            for attribute in ["string", "int", "uuid", "location", "priority", "date"] {
                try rawSQL(container, #"UPDATE "Everything" SET "\#(attribute)" = NULL"#)
                expectError(try container.newContext().fetch(FetchRequest<Everything>()), .typeMismatch, "\(kind): NULL \(attribute)") {
                    XCTAssertEqual($0.entity, "Everything")
                    XCTAssertEqual($0.attribute, attribute)
                    XCTAssertTrue($0.description.contains(attribute), $0.description)
                }
                let restore: String
                switch attribute {
                case "string": restore = "'row'"
                case "uuid": restore = "zeroblob(16)"
                case "location": restore = #"'{"latitude":0,"longitude":0}'"#
                case "date": restore = "0.0"
                default: restore = "0"
                }
                try rawSQL(container, #"UPDATE "Everything" SET "\#(attribute)" = \#(restore)"#)
            }
        }
    }

    func testValueForKeyReturnsSwiftValues() throws {
        forEachStore { container, kind in
            let context = container.newContext()
            let object = Everything(context: context)
            let uuid = UUID()
            object.int16 = -5
            object.int32 = 7
            object.float = 1.5
            object.uuid = uuid
            object.url = URL(fileURLWithPath: "/tmp/v")
            object.priority = .high
            object.location = Location(latitude: 3, longitude: 4)
            object.optionalPriority = .normal
            object.optionalInt = 12
            object.optionalLocation = nil
            object.date = Date(timeIntervalSince1970: 99)
            try context.save()

            let fetched = try XCTUnwrap(try container.newContext().existingObject(with: object.objectID) as? Everything)
            for candidate in [object, fetched] {
                XCTAssertEqual(try candidate.value(forKey: "int16") as? Int16, -5, "\(kind)")
                XCTAssertEqual(try candidate.value(forKey: "int32") as? Int32, 7)
                XCTAssertEqual(try candidate.value(forKey: "float") as? Float, 1.5)
                XCTAssertEqual(try candidate.value(forKey: "uuid") as? UUID, uuid)
                XCTAssertEqual(try candidate.value(forKey: "url") as? URL, URL(fileURLWithPath: "/tmp/v"))
                XCTAssertEqual(try candidate.value(forKey: "priority") as? Priority, .high)
                XCTAssertEqual(try candidate.value(forKey: "location") as? Location, Location(latitude: 3, longitude: 4))
                XCTAssertEqual(try candidate.value(forKey: "optionalPriority") as? Priority, .normal)
                XCTAssertEqual(try candidate.value(forKey: "optionalInt") as? Int, 12)
                XCTAssertEqual(try candidate.value(forKey: "date") as? Date, Date(timeIntervalSince1970: 99))
                XCTAssertEqual(try candidate.value(forKey: "bool") as? Bool, false)
                XCTAssertNil(try candidate.value(forKey: "optionalLocation"))
                XCTAssertNil(try candidate.value(forKey: "optionalString"))
                expectError(try candidate.value(forKey: "Int16"), .unknownKey, "keys are case-sensitive")
            }

            // setValue takes the Swift types, and rejects values that do not fit.
            try fetched.setValue(Priority.low, forKey: "priority")
            try fetched.setValue(Int16(9), forKey: "int16")
            try fetched.setValue(Location(latitude: 5, longitude: 6), forKey: "location")
            try fetched.setValue(nil, forKey: "optionalPriority")
            XCTAssertEqual(fetched.priority, .low)
            XCTAssertEqual(fetched.int16, 9)
            XCTAssertEqual(fetched.location, Location(latitude: 5, longitude: 6))
            XCTAssertNil(fetched.optionalPriority)
            expectError(try fetched.setValue(70_000, forKey: "int16"), .typeMismatch, "out of Int16's range")
            expectError(try fetched.setValue(3, forKey: "priority"), .typeMismatch, "no Priority has raw value 3")
            expectError(try fetched.setValue("{", forKey: "location"), .typeMismatch, "not a Location")
            expectError(try fetched.setValue(nil, forKey: "int"), .typeMismatch, "nil for a non-optional")
            expectError(try fetched.setValue("x", forKey: "int"), .typeMismatch, "text for an Int")
            expectError(try fetched.setValue(1, forKey: "missing"), .unknownKey, "unknown key")
            XCTAssertEqual(fetched.int16, 9, "failed sets change nothing")
            XCTAssertEqual(fetched.priority, .low)
        }
    }
}
