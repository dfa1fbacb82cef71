import Foundation
import Logging
import Synchronization

/// A model and the store that holds its objects; hands out contexts.
///
/// ```swift
/// let model = try ManagedObjectModel(entities: [TaskItem.self])
/// let container = try PersistentContainer(model: model, store: .sqlite(url))
/// let context = container.newContext()
/// ```
///
/// A container is `Sendable`: share it between actors and threads, and give each its own
/// context (``newContext()``, ``performBackgroundTask(_:)``, or the main actor's
/// ``viewContext``).
public final class PersistentContainer: Sendable {
    /// The model.
    public let model: ManagedObjectModel
    /// Where the objects are kept.
    public let storeDescription: StoreDescription
    let store: SQLiteStore
    @MainActor private var mainContext: ManagedObjectContext?
    /// The view context's identity in the store's log (0 until it is made).
    let viewContextIdentity = Atomic<Int>(0)
    /// Whether a merge of the view context is already on its way to the main actor.
    let viewMergeScheduled = Atomic<Bool>(false)

    /// What opening the store migrated: nil when the store was new or already of the model's
    /// version.
    public let migrationReport: MigrationReport?

    /// Opens (or creates) the store for `model`.
    ///
    /// A new store is created in one transaction; a file whose creation never finished (the
    /// process was killed) is created again. A store this process cannot write opens
    /// read-only (see ``isReadOnly``). A store written by an older version of the model is
    /// migrated first, in one transaction, by the ``Options/migrationPlan`` (see
    /// <doc:MigratingAModel>).
    ///
    /// ```swift
    /// let container = try PersistentContainer(model: model, store: .sqlite(url), options: .init(migrationPlan: plan))
    /// ```
    ///
    /// ```swift
    /// let url = URL(fileURLWithPath: "tasks.sqlite")
    /// let container = try PersistentContainer(model: model, store: .sqlite(url))   // or .inMemory
    /// ```
    ///
    /// - Throws: ``PersistError``: `.notADatabase` for a file that is not an SQLite database
    ///   (or is truncated or damaged), `.incompatibleModel` for a store written with another
    ///   model, a newer version of the model or a newer store format, an older version with no
    ///   migration plan or no way through it, or whose tables and columns do not match the
    ///   model (the files are left untouched), `.cannotOpenStore` for a directory that cannot be
    ///   made (a writable store's missing directories are made), a read-only store's missing
    ///   directory, a new store in a read-only location, or a locked database; a migration's own errors
    ///   (duplicates for a new uniqueness constraint, an error a custom stage throws), after
    ///   which the store is as it was.
    public init(model: ManagedObjectModel, store: StoreDescription, options: Options = Options()) throws {
        self.model = model
        storeDescription = store
        let migrator = try options.migrationPlan?.migrator(for: model, progress: options.migrationProgress)
        self.store = try SQLiteStore(model: model, description: store, migrator: migrator, logSettings: options.logSettings)
        migrationReport = migrator?.report
        self.store.addCommitObserver { [weak self] change in
            self?.viewContextShouldMerge(change)
        }
    }

    /// The logger given in ``Options/logger`` (nil: the container logs nothing); each new
    /// context starts with it (``ManagedObjectContext/logger``).
    public var logger: Logger? { store.logSettings.logger }

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
    /// With ``ManagedObjectContext/automaticallyMergesChanges`` on (the default), another
    /// context's save reaches it by itself: the main actor runs its
    /// ``ManagedObjectContext/processPendingChanges()`` soon after, and its controllers update.
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
        viewContextIdentity.store(context.contextIdentity, ordering: .releasing)
        return context
    }

    /// The view context if it was made (never makes it).
    @MainActor
    var viewContextIfMade: ManagedObjectContext? { mainContext }

    /// The store's identifier, a UUID made when the store was created; it is part of every
    /// `ObjectID` of the store.
    public var storeIdentifier: String { store.identifier }
}
