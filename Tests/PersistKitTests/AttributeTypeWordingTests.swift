import Foundation
import PersistKit
import XCTest

/// Issue 25, item 10: messages name an attribute's type with the right article, "an integer
/// attribute", never "a integer attribute".
final class AttributeTypeWordingTests: XCTestCase {
    final class Counter: ManagedObject {
        @Attribute var count = 0
        @Attribute var title = ""
    }

    func testAMismatchedValueNamesAnIntegerAttributeWithItsArticle() throws {
        let model = try ManagedObjectModel(entities: [Counter.self])
        let entity = try XCTUnwrap(model.entity(named: "Counter"))
        XCTAssertThrowsError(try FetchPredicate<Counter>(format: "count == %@", argumentArray: ["many"], entity: entity)) { error in
            let message = (error as? PersistError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains("does not fit count, an integer attribute"), message)
        }
        XCTAssertThrowsError(try FetchPredicate<Counter>(format: "title == %@", argumentArray: [3.5], entity: entity)) { error in
            let message = (error as? PersistError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains("does not fit title, a string attribute"), message)
        }
    }
}
