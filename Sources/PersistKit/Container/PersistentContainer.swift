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
    /// A new store is created in one transaction; a file whose creation never finished (the
    /// process was killed) is created again. A store this process cannot write opens
    /// read-only (see ``isReadOnly``).
    ///
    /// ```swift
    /// let url = URL(fileURLWithPath: "tasks.sqlite")
    /// let container = try PersistentContainer(model: model, store: .sqlite(url))   // or .inMemory
    /// ```
    ///
    /// - Throws: ``PersistError``: `.notADatabase` for a file that is not an SQLite database
    ///   (or is truncated or damaged), `.incompatibleModel` for a store written with another
    ///   model or a newer store format, or whose tables and columns do not match the model
    ///   (the files are left untouched), `.cannotOpenStore` for a missing directory, a new
    ///   store in a read-only location, or a locked database.
    public init(model: ManagedObjectModel, store: StoreDescription) throws {
        self.model = model
        storeDescription = store
        self.store = try SQLiteStore(model: model, description: store)
    }

    /// Whether the store is read-only: opened with `readOnly: true`, or not writable by this
    /// process. Fetches work; a save throws `.cannotOpenStore` ("the store ... is read-only").
    public var isReadOnly: Bool { store.isReadOnly }

    /// A new context. Contexts are cheap; use one per unit of work, thread or task.
    ///
    /// ```swift
    /// let background = container.newContext()
    /// Task.detached { try importTasks(into: background) }   // its own thread, its own context
    /// ```
    public func newContext() -> ManagedObjectContext {
        ManagedObjectContext(store: store)
    }

    /// The context for the main actor (user interfaces), made on first use.
    ///
    /// ```swift
    /// @MainActor func showTasks() throws {
    ///     let tasks = try container.viewContext.fetch(FetchRequest<TaskItem>())
    /// }
    /// ```
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
