import Foundation
import Synchronization
import XCTest

/// A test's bound on something that must end: `body`'s result, or a test failure and a thrown
/// error once `seconds` pass. Unlike a task group (which waits for every child, the stuck one
/// too), it never waits for a body that does not end: the test fails instead of hanging.
enum Deadline {
    struct Missed: Error, CustomStringConvertible {
        let what: String
        let seconds: Double
        var description: String { "\(what) did not end within \(Int(seconds)) s" }
    }

    @discardableResult
    static func run<T: Sendable>(seconds: Double, _ what: String, file: StaticString = #filePath, line: UInt = #line,
                                 _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let result: Result<T, any Error> = await withCheckedContinuation { (outer: CheckedContinuation<Result<T, any Error>, Never>) in
            let once = Mutex(Optional(outer))
            let finish: @Sendable (Result<T, any Error>) -> Void = { result in
                once.withLock { $0.take() }?.resume(returning: result)
            }
            Task {
                do { finish(.success(try await body())) } catch { finish(.failure(error)) }
            }
            Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                finish(.failure(Missed(what: what, seconds: seconds)))
            }
        }
        if case .failure(let error as Missed) = result { XCTFail("\(error)", file: file, line: line) }
        return try result.get()
    }
}
