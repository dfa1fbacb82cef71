// PersistKit re-exports Foundation, so `import PersistKit` alone gives a file Foundation too,
// with PersistKit's `Predicate` and `SortDescriptor` unambiguous. Swift 6.3 does not let them
// shadow Foundation's in a file that also imports Foundation (or XCTest) itself: write
// `PersistKit.Predicate<T>` in type annotations there. Expressions such as
// `SortDescriptor(\.due)` and `\.isComplete == false` resolve either way.
@_exported import Foundation
