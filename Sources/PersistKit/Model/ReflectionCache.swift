import Foundation

/// The per-process cache of reflected entities, keyed by class.
final class ReflectionCache: @unchecked Sendable {
    // @unchecked Sendable: `entities` is only read and written while holding `lock`.
    private let lock = NSLock()
    private var entities: [ObjectIdentifier: Result<EntityDescription, PersistError>] = [:]

    func entity(for objectClass: ManagedObject.Type,
                make: () -> Result<EntityDescription, PersistError>) -> Result<EntityDescription, PersistError> {
        let key = ObjectIdentifier(objectClass)
        lock.lock()
        if let cached = entities[key] {
            lock.unlock()
            return cached
        }
        lock.unlock()
        // Reflecting runs user code (property initializers): not under the lock.
        let made = make()
        lock.lock()
        defer { lock.unlock() }
        if let cached = entities[key] { return cached }
        entities[key] = made
        return made
    }
}
