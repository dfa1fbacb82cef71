import Foundation

/// A model and the store that holds its objects; hands out contexts.
///
/// ```swift
/// let model = try ManagedObjectModel(entities: [TaskItem.self])
/// let container = try PersistentContainer(model: model, store: .sqlite(url))
/// let context = container.newContext()
/// ```
public final class PersistentContainer: Sendable {
    /// The model.
    public let model: ManagedObjectModel
    /// Where the objects are kept.
    public let storeDescription: StoreDescription
    let store: SQLiteStore
    @MainActor private var mainContext: ManagedObjectContext?

    /// Opens (or creates) the store for `model`.
    ///
    /// - Throws: ``PersistError``: `.notADatabase` for a file that is not an SQLite database
    ///   (or is truncated or damaged), `.incompatibleModel` for a store written with another
    ///   model (the files are left untouched), `.cannotOpenStore` for a missing directory, a
    ///   read-only location or a locked database.
    public init(model: ManagedObjectModel, store: StoreDescription) throws {
        self.model = model
        storeDescription = store
        self.store = try SQLiteStore(model: model, description: store)
    }

    /// A new context. Contexts are cheap; use one per unit of work, thread or task.
    public func newContext() -> ManagedObjectContext {
        ManagedObjectContext(store: store)
    }

    /// The context for the main actor (user interfaces), made on first use.
    @MainActor
    public var viewContext: ManagedObjectContext {
        if let mainContext { return mainContext }
        let context = newContext()
        mainContext = context
        return context
    }

    /// The store's identifier, a UUID made when the store was created; it is part of every
    /// `ObjectID` of the store.
    public var storeIdentifier: String { store.identifier }
}
