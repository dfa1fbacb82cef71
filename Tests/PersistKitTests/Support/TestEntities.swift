import Foundation
import PersistKit

enum Priority: Int, AttributeValue, CaseIterable {
    case low, normal, high
}

struct Location: Codable, Equatable, AttributeValue {
    var latitude: Double
    var longitude: Double
}

/// The task entity the tests use: class TestTask, entity "Task".
final class TestTask: ManagedObject {
    override class var entityName: String { "Task" }
    @Attribute var name: String
    @Attribute var notes: String?
    @Attribute var due: Date?
    @Attribute var isComplete = false
    @Attribute var priority: Priority = .normal
    @Attribute var estimate: Double?
    @Attribute var count: Int = 0
}

/// Every supported attribute type, optional and not.
final class Everything: ManagedObject {
    @Attribute var bool = false
    @Attribute var int = 0
    @Attribute var int64: Int64 = 0
    @Attribute var int32: Int32 = 0
    @Attribute var int16: Int16 = 0
    @Attribute var double = 0.0
    @Attribute var float: Float = 0
    @Attribute var string = ""
    @Attribute var date = Date(timeIntervalSince1970: 0)
    @Attribute var data = Data()
    @Attribute var uuid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    @Attribute var url = URL(fileURLWithPath: "/")
    @Attribute var priority: Priority = .low
    @Attribute var location = Location(latitude: 0, longitude: 0)
    @Attribute var optionalBool: Bool?
    @Attribute var optionalInt: Int?
    @Attribute var optionalString: String?
    @Attribute var optionalDate: Date?
    @Attribute var optionalData: Data?
    @Attribute var optionalUUID: UUID?
    @Attribute var optionalURL: URL?
    @Attribute var optionalPriority: Priority?
    @Attribute var optionalLocation: Location?
}

/// Names that are SQL keywords.
final class Index: ManagedObject {
    @Attribute var order = 0
    @Attribute var group: String?
    @Attribute var select = ""
}

/// A uniqueness constraint.
final class Account: ManagedObject {
    override class var uniquenessConstraints: [[String]] { [["email"]] }
    @Attribute var email: String
    @Attribute var displayName: String?
}

/// Validation of its own.
final class Checked: ManagedObject {
    @Attribute var title: String = ""
    override func validateForSave() throws {
        if title.trimmingCharacters(in: .whitespaces).isEmpty {
            throw PersistError(.validation, "Checked.title must not be blank", entity: "Checked", attribute: "title")
        }
    }
}
