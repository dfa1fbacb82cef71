import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

// Models that break a rule, one pair of classes per rule.
final class MNoInverseA: ManagedObject { @Relationship var b: MNoInverseB? }
final class MNoInverseB: ManagedObject { @Attribute var name = "" }

final class MDisagreeA: ManagedObject {
    @Relationship(inverse: \MDisagreeB.first) var b: MDisagreeB?
    @Relationship(inverse: .none) var other: MDisagreeB?
}
final class MDisagreeB: ManagedObject {
    @Relationship(inverse: \MDisagreeA.other) var first: Set<MDisagreeA>
}

final class MWrongTargetA: ManagedObject { @Relationship(inverse: \MWrongTargetB.c) var b: MWrongTargetB? }
final class MWrongTargetB: ManagedObject { @Relationship(inverse: .none) var c: MWrongTargetC? }
final class MWrongTargetC: ManagedObject { @Attribute var name = "" }

final class MRequiredOneWay: ManagedObject { @Relationship(inverse: .none, minimumCount: 1) var b: MNoInverseB? }

final class MOrderedBothA: ManagedObject { @Relationship(inverse: \MOrderedBothB.a) var b: [MOrderedBothB] }
final class MOrderedBothB: ManagedObject { @Relationship var a: [MOrderedBothA] }

final class MCounts: ManagedObject { @Relationship(inverse: .none, minimumCount: 3, maximumCount: 1) var b: Set<MNoInverseB> }

final class MNameClash: ManagedObject {
    @Attribute var b = ""
    @Relationship(inverse: .none) var B: MNoInverseB?
}

/// The model checks relationships when it is made: every broken rule is an `.invalidModel`
/// error naming the entity and the relationship. Model documents carry relationships.
final class RelationshipModelTests: XCTestCase {
    private func expectInvalid(_ entities: [ManagedObject.Type], entity: String, relationship: String, mentioning words: [String],
                               file: StaticString = #filePath, line: UInt = #line) {
        expectError(try ManagedObjectModel(entities: entities), .invalidModel, file: file, line: line) { error in
            XCTAssertEqual(error.entity, entity, "\(error)", file: file, line: line)
            XCTAssertEqual(error.attribute, relationship, "\(error)", file: file, line: line)
            for word in words { XCTAssertTrue(error.message.contains(word), "'\(word)' not in: \(error.message)", file: file, line: line) }
        }
    }

    func testARelationshipWithoutInverseMustSaySo() {
        expectInvalid([MNoInverseA.self, MNoInverseB.self], entity: "MNoInverseA", relationship: "b",
                      mentioning: ["MNoInverseA.b", "no inverse", "inverse: .none"])
    }

    func testInversesMustAgree() {
        expectInvalid([MDisagreeA.self, MDisagreeB.self], entity: "MDisagreeA", relationship: "b", mentioning: ["MDisagreeB.first"])
    }

    func testAnInverseMustPointBack() {
        expectInvalid([MWrongTargetA.self, MWrongTargetB.self, MWrongTargetC.self], entity: "MWrongTargetA", relationship: "b",
                      mentioning: ["MWrongTargetB.c", "MWrongTargetC", "not MWrongTargetA"])
    }

    func testADestinationMustBeInTheModel() {
        expectInvalid([MWrongTargetB.self], entity: "MWrongTargetB", relationship: "c", mentioning: ["MWrongTargetC", "not an entity"])
    }

    func testARequiredToOneNeedsAnInverse() {
        expectInvalid([MRequiredOneWay.self, MNoInverseB.self], entity: "MRequiredOneWay", relationship: "b", mentioning: ["required"])
    }

    func testOnlyOneSideOfAManyToManyIsOrdered() {
        expectInvalid([MOrderedBothA.self, MOrderedBothB.self], entity: "MOrderedBothA", relationship: "b", mentioning: ["ordered"])
    }

    func testCountsMustMakeSense() {
        expectInvalid([MCounts.self, MNoInverseB.self], entity: "MCounts", relationship: "b", mentioning: ["minimum", "maximum"])
    }

    func testRelationshipAndAttributeNamesAreDistinct() {
        expectError(try ManagedObjectModel(entities: [MNameClash.self, MNoInverseB.self]), .invalidModel) { error in
            XCTAssertEqual(error.entity, "MNameClash")
            XCTAssertTrue(error.message.contains("B"), error.message)
        }
    }

    func testTheModelDescribesBothSides() throws {
        let model = try ManagedObjectModel(entities: graphEntities)
        let project = try XCTUnwrap(model.entity(named: "GProject"))
        let tasks = try XCTUnwrap(project.relationship(named: "tasks"))
        XCTAssertEqual(tasks.kind, .toMany)
        XCTAssertEqual(tasks.inverseName, "project")
        XCTAssertEqual(tasks.destinationEntityName, "GTask")
        let task = try XCTUnwrap(model.entity(named: "GTask"))
        XCTAssertEqual(task.relationship(named: "project")?.inverseName, "tasks")
        XCTAssertEqual(task.relationship(named: "tags")?.kind, .toMany)
        XCTAssertEqual(model.entity(named: "GPlan")?.relationship(named: "steps")?.kind, .orderedToMany)
        XCTAssertEqual(model.entity(named: "GOwner")?.relationship(named: "projects")?.deleteRule, .cascade)
    }

    func testModelDocumentsCarryRelationships() throws {
        let model = try ManagedObjectModel(entities: graphEntities)
        let document = model.document
        let text = String(decoding: document, as: UTF8.self)
        XCTAssertTrue(text.contains("\"inverse\" : \"tasks\""), text)
        let loaded = try ManagedObjectModel(document: document)
        XCTAssertEqual(loaded.versionHash, model.versionHash)
        XCTAssertEqual(loaded.document, document)
        XCTAssertEqual(loaded.entity(named: "GPlan")?.relationship(named: "steps")?.kind, .orderedToMany)
    }

    func testADocumentModelOpensAClassModelsStoreAndNavigates() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("graph.sqlite")
        do {
            let context = try makeGraphContainer(directory, url: url).newContext()
            let project = GProject(context: context)
            project.name = "Home"
            let task = GTask(context: context)
            task.title = "t"
            task.project = project
            try context.save()
        }
        let model = try ManagedObjectModel(document: try ManagedObjectModel(entities: graphEntities).document)
        let context = try PersistentContainer(model: model, store: .sqlite(url)).newContext()
        let project = try XCTUnwrap(context.fetch(FetchRequest<ManagedObject>(entityName: "GProject")).first)
        let tasks = try project.relatedObjects(forKey: "tasks")
        XCTAssertEqual(try tasks.first?.value(forKey: "title") as? String, "t")
    }
}
