import Foundation
import XCTest
@testable import PersistKit

// MARK: Entities only these tests use (prefixed MT so they clash with no other file's).

/// Named after its class.
private final class MTPlain: ManagedObject {
    @Attribute var title = ""
}

/// Two classes whose names differ only in case.
private final class MTGadget: ManagedObject {
    @Attribute var size = 0
}

private final class MTGADGET: ManagedObject {
    @Attribute var size = 0
}

/// Entity names SQLite or PersistKit reserve.
private final class MTSQLiteNamed: ManagedObject {
    override class var entityName: String { "sqlite_x" }
    @Attribute var value = 0
}

private final class MTUnderscoreNamed: ManagedObject {
    override class var entityName: String { "_x" }
    @Attribute var value = 0
}

private final class MTQuoteNamed: ManagedObject {
    override class var entityName: String { "a\"b" }
    @Attribute var value = 0
}

private final class MTEmptyNamed: ManagedObject {
    override class var entityName: String { "" }
    @Attribute var value = 0
}

/// An attribute whose name starts with an underscore.
private final class MTUnderscoreAttribute: ManagedObject {
    @Attribute var _x = 0
}

/// Two attributes whose names differ only in case.
private final class MTCaseTwins: ManagedObject {
    @Attribute var name = ""
    @Attribute var Name = ""
}

/// A required enum attribute without an initial value: enums have no placeholder.
private final class MTRequiredEnum: ManagedObject {
    @Attribute var p: Priority
}

/// A required Codable attribute without an initial value.
private final class MTRequiredCodable: ManagedObject {
    @Attribute var where_: Location
}

/// A uniqueness constraint naming no attribute.
private final class MTBadConstraint: ManagedObject {
    override class var uniquenessConstraints: [[String]] { [["missing"]] }
    @Attribute var present = ""
}

/// An entity whose name is the one PersistKit gives Account's unique index.
private final class MTIndexNamed: ManagedObject {
    override class var entityName: String { "Account_unique_0" }
    @Attribute var value = 0
}

// Versions of one entity "Thing", for the version hash.
private final class MTThingBase: ManagedObject {
    override class var entityName: String { "Thing" }
    @Attribute var a = 0
    @Attribute var b: String?
}

private final class MTThingSameOtherDefault: ManagedObject {
    override class var entityName: String { "Thing" }
    @Attribute var a = 42
    @Attribute var b: String? = "x"
}

private final class MTThingReordered: ManagedObject {
    override class var entityName: String { "Thing" }
    @Attribute var b: String?
    @Attribute var a = 0
}

private final class MTThingAdded: ManagedObject {
    override class var entityName: String { "Thing" }
    @Attribute var a = 0
    @Attribute var b: String?
    @Attribute var c = 0.0
}

private final class MTThingRenamed: ManagedObject {
    override class var entityName: String { "Thing" }
    @Attribute var a = 0
    @Attribute var bb: String?
}

private final class MTThingRetyped: ManagedObject {
    override class var entityName: String { "Thing" }
    @Attribute var a: Int64 = 0
    @Attribute var b: String?
}

private final class MTThingStringTyped: ManagedObject {
    override class var entityName: String { "Thing" }
    @Attribute var a = ""
    @Attribute var b: String?
}

private final class MTThingOptionality: ManagedObject {
    override class var entityName: String { "Thing" }
    @Attribute var a = 0
    @Attribute var b = ""
}

private final class MTThingUnique: ManagedObject {
    override class var entityName: String { "Thing" }
    override class var uniquenessConstraints: [[String]] { [["a"]] }
    @Attribute var a = 0
    @Attribute var b: String?
}

// MARK: Helpers

private func expectModelError<T>(_ body: @autoclosure () throws -> T, _ code: PersistError.Code = .invalidModel,
                              _ message: String = "", file: StaticString = #filePath, line: UInt = #line,
                              _ check: (PersistError) -> Void = { _ in }) {
    XCTAssertThrowsError(try body(), message, file: file, line: line) { error in
        guard let error = error as? PersistError else {
            XCTFail("Expected a PersistError, got \(type(of: error)): \(error)", file: file, line: line)
            return
        }
        XCTAssertEqual(error.code, code, "\(message): \(error)", file: file, line: line)
        check(error)
    }
}

/// A container over an explicit model, on a fresh store of `kind` in `directory`.
private func modelTestContainer(_ model: ManagedObjectModel, _ kind: StoreKind, in directory: TemporaryDirectory,
                                name: String = "store.sqlite") throws -> PersistentContainer {
    switch kind {
    case .sqlite: return try PersistentContainer(model: model, store: .sqlite(directory.file(name)))
    case .inMemory: return try PersistentContainer(model: model, store: .inMemory)
    }
}

/// The keys of every JSON object in `text`, each object's keys in document order.
private func jsonObjectKeyLists(_ text: String) -> [[String]] {
    var result: [[String]] = []
    var stack: [[String]] = []
    let scalars = Array(text.unicodeScalars)
    var i = 0
    while i < scalars.count {
        let c = scalars[i]
        switch c {
        case "{":
            stack.append([])
            i += 1
        case "}":
            if let keys = stack.popLast() { result.append(keys) }
            i += 1
        case "\"":
            var string = ""
            i += 1
            while i < scalars.count, scalars[i] != "\"" {
                if scalars[i] == "\\", i + 1 < scalars.count {
                    string.unicodeScalars.append(scalars[i + 1])
                    i += 2
                } else {
                    string.unicodeScalars.append(scalars[i])
                    i += 1
                }
            }
            i += 1
            var j = i
            while j < scalars.count, scalars[j] == " " || scalars[j] == "\n" || scalars[j] == "\t" || scalars[j] == "\r" { j += 1 }
            if j < scalars.count, scalars[j] == ":", !stack.isEmpty {
                stack[stack.count - 1].append(string)
            }
        default:
            i += 1
        }
    }
    return result
}

private func documentJSON(_ object: [String: Any]) throws -> Data {
    try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
}

private func validDocumentObject() throws -> [String: Any] {
    let model = try ManagedObjectModel(entities: [TestTask.self])
    let object = try JSONSerialization.jsonObject(with: model.document)
    return try XCTUnwrap(object as? [String: Any])
}

// MARK: Tests

final class ModelTests: XCTestCase {

    // MARK: Entity names

    func testEntityIsNamedAfterItsClassUnlessTheClassNamesIt() throws {
        let model = try ManagedObjectModel(entities: [TestTask.self, Everything.self, MTPlain.self])
        XCTAssertEqual(model.entities.map(\.name), ["Task", "Everything", "MTPlain"])
        XCTAssertEqual(model.entity(for: TestTask.self)?.name, "Task")
        XCTAssertTrue(model.entity(named: "Task")?.objectClass == TestTask.self)
        XCTAssertTrue(model.entity(named: "Task")?.isClassBacked ?? false)
        XCTAssertNil(model.entity(named: "TestTask"), "the class name is not the entity name when the class names it")
        XCTAssertEqual(model.entity(for: Everything.self)?.name, "Everything")
        XCTAssertNil(model.entity(for: Index.self), "Index is not in this model")

        let context = try PersistentContainer(model: model, store: .inMemory).newContext()
        let task = TestTask(context: context)
        XCTAssertEqual(task.entity.name, "Task")
        XCTAssertEqual(task.objectID.entityName, "Task")
    }

    // MARK: Attributes

    func testAttributesOfEverything() throws {
        let model = try ManagedObjectModel(entities: [Everything.self])
        let entity = try XCTUnwrap(model.entity(named: "Everything"))
        let expected: [(String, AttributeType, Bool)] = [
            ("bool", .boolean, false), ("int", .integer, false), ("int64", .integer64, false),
            ("int32", .integer32, false), ("int16", .integer16, false), ("double", .double, false),
            ("float", .float, false), ("string", .string, false), ("date", .date, false),
            ("data", .binary, false), ("uuid", .uuid, false), ("url", .uri, false),
            ("priority", .integer, false), ("location", .json, false),
            ("optionalBool", .boolean, true), ("optionalInt", .integer, true), ("optionalString", .string, true),
            ("optionalDate", .date, true), ("optionalData", .binary, true), ("optionalUUID", .uuid, true),
            ("optionalURL", .uri, true), ("optionalPriority", .integer, true), ("optionalLocation", .json, true),
        ]
        XCTAssertEqual(entity.attributeNames, expected.map(\.0), "attributes in declaration order")
        for (index, (name, type, optional)) in expected.enumerated() {
            let attribute = try XCTUnwrap(entity.attribute(named: name), name)
            XCTAssertEqual(attribute.index, index, name)
            XCTAssertEqual(attribute.type, type, name)
            XCTAssertEqual(attribute.isOptional, optional, name)
            XCTAssertFalse(attribute.isRequired, "\(name) has a default or is optional")
            if optional {
                XCTAssertNil(attribute.defaultValue, "\(name): optional without initial value has no default")
            }
        }
        func defaultOf(_ name: String) -> SQLValue? { entity.attribute(named: name)?.defaultValue }
        XCTAssertEqual(defaultOf("bool"), .integer(0))
        XCTAssertEqual(defaultOf("int"), .integer(0))
        XCTAssertEqual(defaultOf("int16"), .integer(0))
        XCTAssertEqual(defaultOf("double"), .real(0))
        XCTAssertEqual(defaultOf("string"), .text(""))
        // Dates are stored as seconds since 2001 (Foundation's reference date).
        XCTAssertEqual(defaultOf("date"), .real(Date(timeIntervalSince1970: 0).timeIntervalSinceReferenceDate))
        XCTAssertEqual(defaultOf("data"), .blob(Data()))
        XCTAssertEqual(defaultOf("uuid"), .blob(Data(repeating: 0, count: 16)))
        XCTAssertEqual(defaultOf("url"), .text("file:///"))
        XCTAssertEqual(defaultOf("priority"), .integer(0))
        XCTAssertEqual(defaultOf("location"), .text(#"{"latitude":0,"longitude":0}"#))

        let task = try XCTUnwrap(ManagedObjectModel(entities: [TestTask.self]).entity(named: "Task"))
        let name = try XCTUnwrap(task.attribute(named: "name"))
        XCTAssertTrue(name.isRequired, "@Attribute var name: String has no default: required")
        XCTAssertNil(name.defaultValue)
        XCTAssertEqual(task.attribute(named: "priority")?.defaultValue, .integer(Int64(Priority.normal.rawValue)))
        XCTAssertEqual(task.attribute(named: "isComplete")?.defaultValue, .integer(0))
        XCTAssertNil(task.attribute(named: "noSuchAttribute"))
    }

    // MARK: Invalid models

    func testDuplicateEntityIsRejected() {
        expectModelError(try ManagedObjectModel(entities: [TestTask.self, TestTask.self]), .invalidModel, "same class twice") {
            XCTAssertEqual($0.entity, "Task")
            XCTAssertTrue($0.description.contains("Task"), $0.description)
        }
        expectModelError(try ManagedObjectModel(entities: [MTGadget.self, MTGADGET.self]), .invalidModel,
                         "names that differ only by case") {
            XCTAssertTrue($0.description.contains("MTGADGET"), $0.description)
        }
        // Each alone is fine.
        XCTAssertNoThrow(try ManagedObjectModel(entities: [MTGadget.self]))
        XCTAssertNoThrow(try ManagedObjectModel(entities: [MTGADGET.self]))
    }

    func testReservedAndImpossibleNamesAreRejected() {
        expectModelError(try ManagedObjectModel(entities: [MTSQLiteNamed.self]), .invalidModel, "sqlite_x") {
            XCTAssertEqual($0.entity, "sqlite_x")
        }
        expectModelError(try ManagedObjectModel(entities: [MTUnderscoreNamed.self]), .invalidModel, "_x") {
            XCTAssertEqual($0.entity, "_x")
        }
        expectModelError(try ManagedObjectModel(entities: [MTQuoteNamed.self]), .invalidModel, "a quote in the name")
        expectModelError(try ManagedObjectModel(entities: [MTEmptyNamed.self]), .invalidModel, "empty name")
        expectModelError(try ManagedObjectModel(entities: [MTUnderscoreAttribute.self]), .invalidModel, "attribute _x") {
            XCTAssertEqual($0.attribute, "_x")
            XCTAssertEqual($0.entity, "MTUnderscoreAttribute")
        }
        expectModelError(try ManagedObjectModel(entities: [MTCaseTwins.self]), .invalidModel, "name and Name")
        expectModelError(try ManagedObjectModel(entities: [MTBadConstraint.self]), .invalidModel, "constraint on a missing key") {
            XCTAssertEqual($0.attribute, "missing")
        }
    }

    /// Any legal entity name works beside any other: PersistKit's own schema objects (indexes)
    /// must not take names a user's entity can have.
    func testEntityNamedLikeAnInternalIndexWorks() {
        for kind in StoreKind.allCases {
            let directory = TemporaryDirectory()
            do {
                let container = try makeContainer(kind, in: directory, entities: [Account.self, MTIndexNamed.self])
                let context = container.newContext()
                let account = Account(context: context)
                account.email = "a@example.com"
                let other = MTIndexNamed(context: context)
                other.value = 1
                try context.save()
                XCTAssertEqual(try container.newContext().count(for: FetchRequest<MTIndexNamed>()), 1, "\(kind)")
            } catch {
                XCTFail("\(kind): a model with entities Account and Account_unique_0 cannot be used: \(error)")
            }
        }
    }

    func testRequiredAttributeOfATypeWithoutPlaceholderIsRejected() {
        expectModelError(try ManagedObjectModel(entities: [MTRequiredEnum.self]), .invalidModel, "@Attribute var p: Priority") {
            XCTAssertEqual($0.entity, "MTRequiredEnum")
            XCTAssertEqual($0.attribute, "p")
            XCTAssertTrue($0.description.contains("p"), $0.description)
        }
        expectModelError(try ManagedObjectModel(entities: [MTRequiredCodable.self]), .invalidModel, "@Attribute var where_: Location") {
            XCTAssertEqual($0.attribute, "where_")
        }
    }

    // MARK: SQL keywords

    func testSQLKeywordNamesWork() {
        forEachStore { container, kind in
            let context = container.newContext()
            for (order, group, select) in [(3, "b", "x"), (1, nil, "y"), (2, "a", "z"), (4, "a", "w")] as [(Int, String?, String)] {
                let index = Index(context: context)
                index.order = order
                index.group = group
                index.select = select
            }
            try context.save()

            let reader = container.newContext()
            var request = FetchRequest<Index>(predicate: \.order >= 2, sortBy: [FetchSortDescriptor(\.order, order: .reverse)])
            XCTAssertEqual(try reader.fetch(request).map(\.order), [4, 3, 2], "\(kind)")
            request.fetchLimit = 2
            XCTAssertEqual(try reader.fetch(request).map(\.select), ["w", "x"], "\(kind)")
            XCTAssertEqual(try reader.count(for: FetchRequest<Index>(predicate: \.group == nil)), 1, "\(kind)")

            let byGroup = FetchRequest<Index>(predicate: try FetchPredicate<Index>(format: "group == %@ AND order > %@", "a", 1),
                                              sortBy: [FetchSortDescriptor(\.group, nils: .last), FetchSortDescriptor(\.order)])
            XCTAssertEqual(try reader.fetch(byGroup).map(\.order), [2, 4], "\(kind)")
            let bySelect = FetchRequest<Index>(predicate: \.select == "y")
            let one = try XCTUnwrap(reader.fetch(bySelect).first)
            XCTAssertEqual(one.order, 1)

            // Update and delete through the quoted names too.
            one.order = 10
            one.group = "c"
            let gone = try XCTUnwrap(reader.fetch(FetchRequest<Index>(predicate: \.order == 3)).first)
            reader.delete(gone)
            try reader.save()
            let check = container.newContext()
            XCTAssertEqual(try check.fetch(FetchRequest<Index>(sortBy: [FetchSortDescriptor(\.order)])).map(\.order), [2, 4, 10], "\(kind)")
            XCTAssertEqual(try check.fetch(FetchRequest<Index>(predicate: \.order == 10)).first?.group, "c")
        }
    }

    // MARK: Model document

    func testModelDocumentIsPrettyPrintedWithSortedKeys() throws {
        let model = try ManagedObjectModel(entities: standardEntities)
        let text = String(decoding: model.document, as: UTF8.self)
        XCTAssertFalse(text.isEmpty)
        XCTAssertTrue(text.contains("\n"), "pretty-printed: several lines")
        XCTAssertTrue(text.split(separator: "\n").dropFirst().contains { $0.hasPrefix("  ") }, "pretty-printed: indented")
        let keyLists = jsonObjectKeyLists(text)
        XCTAssertGreaterThan(keyLists.count, 10)
        for keys in keyLists {
            XCTAssertEqual(keys, keys.sorted(), "keys of every object are sorted")
        }
        // The top level and an entity carry what the format promises, with room for relationships.
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: model.document) as? [String: Any])
        XCTAssertEqual(object["formatVersion"] as? Int, 1)
        let entities = try XCTUnwrap(object["entities"] as? [[String: Any]])
        XCTAssertEqual(entities.compactMap { $0["name"] as? String }, ["Task", "Everything", "Index", "Account", "Checked"])
        XCTAssertNotNil(entities.first?["relationships"] as? [Any], "room for relationships")
        XCTAssertEqual(entities[3]["uniquenessConstraints"] as? [[String]], [["email"]])
    }

    func testModelDocumentIsStable() throws {
        let first = try ManagedObjectModel(entities: standardEntities)
        let second = try ManagedObjectModel(entities: standardEntities)
        XCTAssertEqual(first.document, first.document)
        XCTAssertEqual(first.document, second.document, "two exports of the same model are byte-identical")
        XCTAssertEqual(first.versionHash, second.versionHash)
        XCTAssertEqual(first.versionHash.count, 64, "SHA-256 in hex")
        XCTAssertTrue(first.versionHash.allSatisfy { $0.isHexDigit })
    }

    func testModelDocumentRoundTrip() throws {
        let model = try ManagedObjectModel(entities: standardEntities)
        let loaded = try ManagedObjectModel(document: model.document)
        XCTAssertEqual(loaded.document, model.document, "a loaded document exports the same bytes")
        XCTAssertEqual(loaded.versionHash, model.versionHash)
        XCTAssertEqual(loaded.entities.map(\.name), model.entities.map(\.name))
        for (a, b) in zip(loaded.entities, model.entities) {
            XCTAssertEqual(a.attributes, b.attributes, a.name)
            XCTAssertEqual(a.uniquenessConstraints, b.uniquenessConstraints, a.name)
            XCTAssertFalse(a.isClassBacked)
            XCTAssertTrue(a.objectClass == ManagedObject.self)
        }
        // And again: a document loaded from a document is still the same.
        XCTAssertEqual(try ManagedObjectModel(document: loaded.document).document, model.document)
    }

    func testVersionHashChangesWithTheSchemaOnly() throws {
        func hash(_ classes: [ManagedObject.Type]) throws -> String { try ManagedObjectModel(entities: classes).versionHash }
        let base = try hash([MTThingBase.self])
        XCTAssertNotEqual(try hash([MTThingAdded.self]), base, "attribute added")
        XCTAssertNotEqual(try hash([MTThingRenamed.self]), base, "attribute renamed")
        XCTAssertNotEqual(try hash([MTThingRetyped.self]), base, "attribute type changed (Int to Int64)")
        XCTAssertNotEqual(try hash([MTThingStringTyped.self]), base, "attribute type changed (Int to String)")
        XCTAssertNotEqual(try hash([MTThingOptionality.self]), base, "optionality changed")
        XCTAssertNotEqual(try hash([MTThingUnique.self]), base, "uniqueness constraint added")
        XCTAssertNotEqual(try hash([MTThingBase.self, MTPlain.self]), base, "entity added")
        XCTAssertEqual(try hash([MTThingSameOtherDefault.self]), base, "defaults are not part of the stored schema")
        XCTAssertEqual(try hash([MTThingReordered.self]), base, "attribute order is not part of the stored schema")

        XCTAssertEqual(try hash([TestTask.self, Everything.self, Index.self]),
                       try hash([Index.self, TestTask.self, Everything.self]), "entity order does not change the hash")
        XCTAssertNotEqual(try hash([TestTask.self, Everything.self]), try hash([TestTask.self, Index.self]))
    }

    func testMalformedDocumentsAreRejected() throws {
        expectModelError(try ManagedObjectModel(document: Data()), .invalidModel, "empty")
        expectModelError(try ManagedObjectModel(document: Data("not json at all".utf8)), .invalidModel, "not JSON")
        expectModelError(try ManagedObjectModel(document: Data([0xFF, 0xFE, 0x00, 0x01, 0x80])), .invalidModel, "binary garbage")
        expectModelError(try ManagedObjectModel(document: Data("[1, 2, 3]".utf8)), .invalidModel, "an array")
        expectModelError(try ManagedObjectModel(document: Data("{}".utf8)), .invalidModel, "no keys")
        expectModelError(try ManagedObjectModel(document: Data(#"{"formatVersion": 1}"#.utf8)), .invalidModel, "no entities")

        let valid = try validDocumentObject()
        XCTAssertNoThrow(try ManagedObjectModel(document: try documentJSON(valid)), "the unmodified document loads")

        /// The valid document with its first entity and that entity's first attribute changed.
        func mutated(_ change: (inout [String: Any], inout [String: Any]) -> Void) throws -> Data {
            var document = valid
            var entities = try XCTUnwrap(document["entities"] as? [[String: Any]])
            var entity = entities[0]
            var attributes = try XCTUnwrap(entity["attributes"] as? [[String: Any]])
            var attribute = attributes[0]
            change(&entity, &attribute)
            attributes[0] = attribute
            if entity["attributes"] != nil { entity["attributes"] = attributes }
            entities[0] = entity
            document["entities"] = entities
            return try documentJSON(document)
        }
        /// The valid document changed at its top level.
        func mutatedDocument(_ change: (inout [String: Any]) -> Void) throws -> Data {
            var document = valid
            change(&document)
            return try documentJSON(document)
        }

        XCTAssertNoThrow(try ManagedObjectModel(document: try mutated { _, _ in }), "the helper alone keeps the document valid")
        XCTAssertNoThrow(try ManagedObjectModel(document: try mutatedDocument { _ in }), "the helper alone keeps the document valid")
        expectModelError(try ManagedObjectModel(document: try mutatedDocument { $0["formatVersion"] = 2 }), .invalidModel, "format 2")
        expectModelError(try ManagedObjectModel(document: try mutatedDocument { $0["formatVersion"] = "1" }), .invalidModel, "format as text")
        expectModelError(try ManagedObjectModel(document: try mutated { _, attr in attr["type"] = "complex" }), .invalidModel, "unknown type")
        expectModelError(try ManagedObjectModel(document: try mutated { _, attr in attr["type"] = 3 }), .invalidModel, "type is a number")
        expectModelError(try ManagedObjectModel(document: try mutated { _, attr in attr.removeValue(forKey: "name") }), .invalidModel, "attribute without name")
        expectModelError(try ManagedObjectModel(document: try mutated { _, attr in attr["name"] = "_pk" }), .invalidModel, "attribute _pk")
        expectModelError(try ManagedObjectModel(document: try mutated { _, attr in attr["name"] = "" }), .invalidModel, "empty attribute name")
        expectModelError(try ManagedObjectModel(document: try mutated { _, attr in attr["name"] = "NOTES" }), .invalidModel, "NOTES beside notes")
        expectModelError(try ManagedObjectModel(document: try mutated { entity, _ in entity["name"] = "sqlite_master" }), .invalidModel, "entity sqlite_master")
        expectModelError(try ManagedObjectModel(document: try mutated { entity, _ in entity["name"] = "_persistkit_metadata" }), .invalidModel, "metadata table name")
        expectModelError(try ManagedObjectModel(document: try mutated { entity, _ in entity["name"] = "" }), .invalidModel, "empty entity name")
        expectModelError(try ManagedObjectModel(document: try mutated { entity, _ in entity["uniquenessConstraints"] = [["nope"]] }), .invalidModel, "constraint on a missing key")
        expectModelError(try ManagedObjectModel(document: try mutated { entity, _ in entity.removeValue(forKey: "attributes") }), .invalidModel, "entity without attributes key")
        expectModelError(try ManagedObjectModel(document: try mutated { _, attr in attr["defaultValue"] = ["blob": ["_0": "***not base64***"]] }),
                         .invalidModel, "bad base64 default")
        expectModelError(try ManagedObjectModel(document: try mutatedDocument { doc in
            let entities = doc["entities"] as? [[String: Any]] ?? []
            doc["entities"] = entities + entities
        }), .invalidModel, "the same entity twice")
        expectModelError(try ManagedObjectModel(document: try mutatedDocument { doc in
            var entities = doc["entities"] as? [[String: Any]] ?? []
            var copy = entities[0]
            copy["name"] = "task"
            entities.append(copy)
            doc["entities"] = entities
        }), .invalidModel, "Task and task")
    }

    /// A default value whose storage class does not fit the attribute's type would be written
    /// into the store and then be unreadable: the document is malformed.
    func testDocumentWithADefaultOfTheWrongTypeIsRejected() throws {
        var document = try validDocumentObject()
        var entities = try XCTUnwrap(document["entities"] as? [[String: Any]])
        var attributes = try XCTUnwrap(entities[0]["attributes"] as? [[String: Any]])
        let countIndex = try XCTUnwrap(attributes.firstIndex { $0["name"] as? String == "count" })
        XCTAssertEqual(attributes[countIndex]["type"] as? String, "integer")
        attributes[countIndex]["defaultValue"] = ["text": ["_0": "not a number"]]
        entities[0]["attributes"] = attributes
        document["entities"] = entities
        let data = try documentJSON(document)
        expectModelError(try ManagedObjectModel(document: data), .invalidModel, "text default for an integer attribute")
    }

    // MARK: Document-only models

    func testDocumentOnlyModelHandsOutPlainObjects() throws {
        let document = try ManagedObjectModel(entities: [TestTask.self]).document
        let model = try ManagedObjectModel(document: document)
        let entity = try XCTUnwrap(model.entity(named: "Task"))
        XCTAssertFalse(entity.isClassBacked)
        XCTAssertNil(model.entity(for: TestTask.self), "a document model knows no classes")

        for kind in StoreKind.allCases {
            let directory = TemporaryDirectory()
            let container = try modelTestContainer(model, kind, in: directory)
            let context = container.newContext()

            for (index, name) in ["one", "two", "three"].enumerated() {
                let object = ManagedObject(entity: entity, insertInto: context)
                XCTAssertTrue(object.isInserted)
                XCTAssertTrue(type(of: object) == ManagedObject.self)
                try object.setValue(name, forKey: "name")
                try object.setValue(index + 1, forKey: "count")
                try object.setValue(index > 0, forKey: "isComplete")
                try object.setValue(Priority.high, forKey: "priority")
                try object.setValue(index == 2 ? 2.5 : nil, forKey: "estimate")
                try object.setValue(Date(timeIntervalSince1970: 1_000), forKey: "due")
                XCTAssertEqual(try object.value(forKey: "name") as? String, name)
                XCTAssertEqual(try object.value(forKey: "count") as? Int, index + 1)
                XCTAssertEqual(try object.value(forKey: "isComplete") as? Bool, index > 0)
                XCTAssertEqual(try object.value(forKey: "priority") as? Int, Priority.high.rawValue)
                XCTAssertNil(try object.value(forKey: "notes"))
            }
            let first = try XCTUnwrap(context.insertedObjects.first)

            // Unknown keys and wrong types throw, and change nothing.
            expectModelError(try first.setValue("x", forKey: "nope"), .unknownKey, "set unknown key") {
                XCTAssertEqual($0.attribute, "nope")
                XCTAssertEqual($0.entity, "Task")
            }
            expectModelError(try first.value(forKey: "nope"), .unknownKey, "get unknown key")
            expectModelError(try first.setValue("three", forKey: "count"), .typeMismatch, "text for an integer") {
                XCTAssertEqual($0.attribute, "count")
            }
            expectModelError(try first.setValue(Data([1]), forKey: "name"), .typeMismatch, "data for a string")
            expectModelError(try first.setValue(nil, forKey: "name"), .typeMismatch, "nil for a required string")
            expectModelError(try first.setValue("soon", forKey: "due"), .typeMismatch, "text for a date")
            XCTAssertEqual(try first.value(forKey: "count") as? Int, 1, "a failed set changes nothing")
            XCTAssertEqual(try first.value(forKey: "name") as? String, "one")

            try context.save()
            XCTAssertFalse(first.objectID.isTemporary)

            let reader = container.newContext()
            let predicate = try FetchPredicate<ManagedObject>(format: "count >= %@ AND isComplete == YES", argumentArray: [2], entity: entity)
            let request = FetchRequest<ManagedObject>(entityName: "Task", predicate: predicate,
                                                      sortBy: [FetchSortDescriptor(key: "count", order: .reverse)])
            let fetched = try reader.fetch(request)
            XCTAssertEqual(fetched.count, 2, "\(kind)")
            XCTAssertEqual(try fetched.map { try $0.value(forKey: "name") as? String }, ["three", "two"], "\(kind)")
            XCTAssertEqual(try fetched.first?.value(forKey: "estimate") as? Double, 2.5)
            XCTAssertNil(try fetched.last?.value(forKey: "estimate"))
            XCTAssertEqual(try fetched.first?.value(forKey: "due") as? Date, Date(timeIntervalSince1970: 1_000))
            XCTAssertTrue(fetched.allSatisfy { type(of: $0) == ManagedObject.self })
            XCTAssertEqual(try reader.count(for: request), 2)
            XCTAssertEqual(try reader.count(for: FetchRequest<ManagedObject>(entityName: "Task")), 3)

            // Changes through setValue are tracked and saved like any other.
            let two = try XCTUnwrap(fetched.last)
            try two.setValue("zwei", forKey: "name")
            XCTAssertTrue(two.isUpdated)
            XCTAssertEqual(two.changedValues().keys.sorted(), ["name"])
            try reader.save()
            let names = try container.newContext().fetch(FetchRequest<ManagedObject>(entityName: "Task", sortBy: [FetchSortDescriptor(key: "count")]))
                .map { try $0.value(forKey: "name") as? String }
            XCTAssertEqual(names, ["one", "zwei", "three"], "\(kind)")

            expectModelError(try reader.fetch(FetchRequest<ManagedObject>()), .invalidRequest, "no entity named")
            expectModelError(try reader.fetch(FetchRequest<ManagedObject>(entityName: "Nope")), .invalidRequest, "unknown entity")
            expectModelError(try FetchPredicate<ManagedObject>(format: "nope == 1", argumentArray: [], entity: entity), .invalidPredicate, "unknown key in a format")
        }
    }

    /// A store written by the class model opens with the document model of the same classes,
    /// and the other way round.
    func testDocumentModelAndClassModelShareStores() throws {
        let classModel = try ManagedObjectModel(entities: [TestTask.self])
        let documentModel = try ManagedObjectModel(document: classModel.document)
        let directory = TemporaryDirectory()
        let url = directory.file("shared.sqlite")
        do {
            let context = try PersistentContainer(model: classModel, store: .sqlite(url)).newContext()
            let task = TestTask(context: context)
            task.name = "from class"
            task.priority = .high
            task.count = 7
            try context.save()
        }
        do {
            let container = try PersistentContainer(model: documentModel, store: .sqlite(url))
            let context = container.newContext()
            let objects = try context.fetch(FetchRequest<ManagedObject>(entityName: "Task"))
            XCTAssertEqual(objects.count, 1)
            let object = try XCTUnwrap(objects.first)
            XCTAssertEqual(try object.value(forKey: "name") as? String, "from class")
            XCTAssertEqual(try object.value(forKey: "priority") as? Int, Priority.high.rawValue)
            let entity = try XCTUnwrap(documentModel.entity(named: "Task"))
            let added = ManagedObject(entity: entity, insertInto: context)
            try added.setValue("from document", forKey: "name")
            try added.setValue(8, forKey: "count")
            try context.save()
        }
        let context = try PersistentContainer(model: classModel, store: .sqlite(url)).newContext()
        let tasks = try context.fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.count)]))
        XCTAssertEqual(tasks.map(\.name), ["from class", "from document"])
        XCTAssertEqual(tasks.last?.priority, .normal, "the default from the document")
        XCTAssertEqual(try tasks.first?.value(forKey: "priority") as? Priority, .high, "class-backed objects decode to Swift types")
    }
}
