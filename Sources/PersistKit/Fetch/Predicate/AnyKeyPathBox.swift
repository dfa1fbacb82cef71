import Synchronization

/// A key path as a dictionary key in a `Mutex`: key paths are immutable objects the runtime
/// shares between threads, but are not marked `Sendable`.
struct AnyKeyPathBox: Hashable, @unchecked Sendable {
    let keyPath: AnyKeyPath
}
