// PersistKit re-exports Foundation, so `import PersistKit` alone gives a file Foundation too,
// with PersistKit's `FetchPredicate` and `FetchSortDescriptor` unambiguous. Swift 6.3 does not let them
// shadow Foundation's in a file that also imports Foundation (or XCTest) itself: write
// `FetchPredicate<T>` in type annotations there. Expressions such as
// `FetchSortDescriptor(\.due)` and `\.isComplete == false` resolve either way.
@_exported import Foundation
