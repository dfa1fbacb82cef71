@testable import PersistKit

// A #Predicate can capture only Codable values (`$0.priority == high`), as SwiftData users'
// enums are. A RawRepresentable & Codable enum is still stored by its raw value.
extension Priority: Codable {}
