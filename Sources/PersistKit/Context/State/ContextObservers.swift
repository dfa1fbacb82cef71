/// A context's observers (``ManagedObjectContext/addObserver(_:)``), and whether a notice is
/// being handed to them.
///
/// Invariants:
/// - Observers are called in the order they were added, each with every notice taken while it
///   is registered; an id is never reused.
/// - While a notice is being delivered, no other notice is taken
///   (``ManagedObjectContext/processPendingChanges()`` called from an observer does nothing):
///   changes made by observers go into the next notice, never a nested or torn one.
struct ContextObservers {
    private var bodies: [Int: (ContextChanges) -> Void] = [:]
    private var nextID = 0
    /// Whether a notice is being handed to the observers.
    private(set) var isDelivering = false

    var isEmpty: Bool { bodies.isEmpty }

    /// Adds an observer; returns its id.
    mutating func add(_ body: @escaping (ContextChanges) -> Void) -> Int {
        let id = nextID
        nextID += 1
        bodies[id] = body
        return id
    }

    /// Removes the observer with `id`, if it is still there.
    mutating func remove(_ id: Int) {
        bodies[id] = nil
    }

    /// The observers' ids, in the order they were added.
    var ids: [Int] { bodies.keys.sorted() }

    /// The observer with `id`, if it is still there (an observer may remove another).
    func observer(_ id: Int) -> ((ContextChanges) -> Void)? {
        bodies[id]
    }

    /// Marks the start and end of a delivery.
    mutating func setDelivering(_ delivering: Bool) {
        isDelivering = delivering
    }
}
