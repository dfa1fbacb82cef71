import PersistKit
import XCTest

/// Asserts that `body` throws a ``PersistError`` with `code`, then runs `check` on it.
public func expectError<T>(_ body: @autoclosure () throws -> T, _ code: PersistError.Code, _ message: String = "",
                           file: StaticString = #filePath, line: UInt = #line,
                           _ check: (PersistError) -> Void = { _ in }) {
    XCTAssertThrowsError(try body(), message, file: file, line: line) { error in
        guard let error = error as? PersistError else {
            XCTFail("Expected a PersistError, got \(type(of: error)): \(error). \(message)", file: file, line: line)
            return
        }
        XCTAssertEqual(error.code, code, "\(message): \(error)", file: file, line: line)
        check(error)
    }
}
