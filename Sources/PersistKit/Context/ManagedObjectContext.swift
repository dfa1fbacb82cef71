import Foundation
import Logging
import Synchronization

/// A unit of work: the objects it has read, the changes made to them, saved together or not
/// at all.
///
/// ```swift
/// let context = container.newContext()
/// let task = TaskItem(context: context)
/// task.name = "Buy milk"
/// try context.save()
/// ```
///
/// A context is confined to the actor, task or thread that made it: it is not `Sendable`, so
/// the compiler keeps it (and its objects) there, and only ``ObjectID``s and values cross to
/// other isolation domains. Contexts of one container may be used concurrently, each in its
/// own domain (``PersistentContainer/performBackgroundTask(_:)`` makes one on a background
/// thread); each sees the others' saves at its next fetch or ``processPendingChanges()``.
public final class ManagedObjectContext {
    /// The model of the context's container.
    public let model: ManagedObjectModel
    let store: SQLiteStore
    /// How a save settles keys that another context or process changed too since this
    /// context read them (`.error` by default: the save throws `.conflict`). Keys changed on
    /// one side only are combined whatever the policy.
    public var mergePolicy: MergePolicy = .error
    /// The context's name, recorded in the persistent history of every transaction it saves
    /// (``HistoryTransaction/contextName``); nil by default.
    public var name: String?
    /// Who is saving (a user, a tool, "import"), recorded in the persistent history of every
    /// transaction the context saves (``HistoryTransaction/author``); nil by default.
    ///
    /// ```swift
    /// context.transactionAuthor = "sync"
    /// try context.save()      // history(after:) shows author "sync"; a sync can skip its own
    /// ```
    public var transactionAuthor: String?
    /// Whether other contexts' saves reach this context by themselves (on by default).
    ///
    /// On, every ``processPendingChanges()`` (which save and every fetch run first) merges
    /// what the container's other contexts saved since: updated objects take the new values
    /// (unless they have changes here, which the next save combines key by key), deleted ones
    /// report ``ManagedObject/isDeleted``, and observers and controllers hear exactly what
    /// changed. The container's ``PersistentContainer/viewContext`` also runs
    /// `processPendingChanges()` on the main actor after another context's save.
    ///
    /// Off, the context keeps its objects as it read them until ``refreshAllObjects()``,
    /// ``refresh(_:mergeChanges:)``, or a fetch that reads their rows again (a fetch always
    /// reads the store, and refreshes the unchanged objects it returns). Core Data's
    /// `automaticallyMergesChangesFromParent` is off by default; PersistKit's is on.
    public var automaticallyMergesChanges = true
    /// Whether reading this context's objects' attributes and relationships inside Swift's
    /// `withObservationTracking` registers them, so that a later change of what was read
    /// calls the tracking's `onChange` once (off by default; see <doc:ObservingResults>).
    ///
    /// ```swift
    /// context.isObservable = true
    /// withObservationTracking { print(task.name) } onChange: { print("name changed") }
    /// task.name = "Buy oat milk"    // prints "name changed"
    /// ```
    ///
    /// Off, reads cost nothing more and register nothing: Observation's check of its tracking
    /// scope costs each read about as much as the read itself, and cannot be asked beforehand.
    /// Turning it on applies to the objects the context already holds.
    // Read for every object a fetch makes: without the run-time exclusivity check (a call per
    // object). The context is confined to its thread and never holds two accesses to it at once.
    @exclusivity(unchecked) public var isObservable = false {
        didSet { if isObservable != oldValue { markObjectsObservable(isObservable) } }
    }
    /// Where this context logs its saves, fetches and merges (`.debug`) and its conflicts
    /// (`.warning`): the container's ``PersistentContainer/Options/logger`` unless set here
    /// (nil logs nothing). Its level is read when it is set. Statements are logged by the
    /// container's logger, whose connections run them for every context (see <doc:Logging>).
    ///
    /// ```swift
    /// context.logger = Logger(label: "import")     // this context's saves under its own label
    /// ```
    public var logger: Logger? {
        didSet { logSink = LogSink.make(logger: logger, settings: store.logSettings) }
    }
    /// ``logger`` resolved once: nil when nothing would be logged.
    var logSink: LogSink?

    /// Records this context's changes for undo and redo (nil, the default: nothing is
    /// recorded). See ``ContextUndoManager``.
    ///
    /// ```swift
    /// context.undoManager = ContextUndoManager()
    /// ```
    // Tested on every change: without the run-time exclusivity check.
    @exclusivity(unchecked) public var undoManager: ContextUndoManager? {
        didSet {
            if oldValue !== undoManager, oldValue?.context === self { oldValue?.context = nil }
            undoManager?.context = self
        }
    }

    /// The objects this context holds: saved ones by entity and key, unsaved inserts, ID scopes.
    @exclusivity(unchecked) var registry = ObjectRegistry()
    /// The saved objects changed or deleted and not yet saved.
    @exclusivity(unchecked) var changeTracker = ChangeTracker()

    /// The graph's generation, for derived relationship lists, and the pending list owners.
    @exclusivity(unchecked) var graph = GraphState()

    /// Changes not yet handed to observers.
    @exclusivity(unchecked) var pendingNotice = PendingNotice()
    /// The observers, and whether a notice is being handed to them.
    var observers = ContextObservers()
    /// How far the store's change log is merged, and the merges and resets so far.
    @exclusivity(unchecked) var mergeCursor: MergeCursor
    /// The parent (a child context's saves go there), the children, and a child's baselines.
    var family = ContextFamily()
    /// The entity `init(context:)` used last, for its class: a class inserts many objects in a row.
    private var lastInsertClass: ObjectIdentifier?
    private var lastInsertEntity: EntityDescription?

    static let temporaryKeys = Atomic<Int64>(0)

    init(store: SQLiteStore) {
        self.store = store
        model = store.model
        mergeCursor = MergeCursor(after: store.currentSequence)
        logger = store.logSettings.logger
        logSink = store.logSink
    }

    deinit {
        // Objects still held elsewhere keep working through a successor (see
        // `ManagedObjectContext+Successor.swift`).
        handOverSurvivors()
    }

    // MARK: State

    /// Whether anything was inserted, changed or deleted and not saved (in a child context:
    /// not yet pushed into its parent by ``save()``).
    ///
    /// ```swift
    /// if context.hasChanges { try context.save() }
    /// ```
    public var hasChanges: Bool {
        if family.parent != nil { return !pendingEdits(relativeToBaselines: true).edits.isEmpty }
        if registry.hasInserts || !changeTracker.deleted.isEmpty { return true }
        return changeTracker.changed.values.contains { $0.isUpdated || ($0.deletedFlag && $0.isChangedSinceRead) || $0.encodingProblems?.isEmpty == false }
    }

    /// Objects inserted and not yet saved, in insertion order.
    public var insertedObjects: [ManagedObject] {
        registry.insertedObjects
    }

    /// Saved objects whose values changed and are not yet saved.
    public var updatedObjects: [ManagedObject] {
        changeTracker.changed.values.filter { $0.isUpdated }.sorted { $0.objectID.key < $1.objectID.key }
    }

    /// Saved objects deleted and not yet saved.
    public var deletedObjects: [ManagedObject] {
        changeTracker.deleted.values.sorted { $0.objectID.key < $1.objectID.key }
    }

    /// Every object the context holds: saved ones it has read, and inserted ones.
    public var registeredObjects: [ManagedObject] {
        registry.allHeld.flatMap { $0.byKey.values } + insertedObjects
    }

    func isPendingDeletion(_ object: ManagedObject) -> Bool {
        changeTracker.isPendingDeletion(object)
    }

    // MARK: Insert and delete

    /// Inserts a new object (``ManagedObject/init(context:)`` does this for you).
    ///
    /// ```swift
    /// guard let entity = context.model.entity(for: TaskItem.self) else { return }
    /// let task = TaskItem(entity: entity, insertInto: nil)   // made without a context
    /// context.insert(task)                                   // saved at the next save
    /// ```
    public func insert(_ object: ManagedObject) {
        guard object.managedObjectContext == nil, !object.insertedFlag, object.objectID.isTemporary,
              !object.isProbe else { return }
        register(insert: object, temporaryKey: ManagedObjectContext.temporaryKeys.add(1, ordering: .relaxed).newValue)
        object.awakeFromInsert()
    }

    /// Registers `object` as an unsaved insert under temporary key `key`: a new key, or the
    /// one it has in a child context (a pushed insert keeps its ID in the parent).
    func register(insert object: ManagedObject, temporaryKey key: Int64) {
        if undoManager != nil { undoRecordWillChange(object) }
        object.objectID = ObjectID(scope: objectIDScope(of: object.entity), key: key, isTemporary: true)
        object.managedObjectContext = self
        if isObservable { object.lifecycle.insert(.tracksReads) }
        object.insertedFlag = true
        object.deletedFlag = false
        registry.noteInsert(object, temporaryKey: model.hasRelationships ? key : nil)
        pendingNotice.queueInsert(object)
    }

    /// Marks an object for deletion at the next save (an unsaved object is simply dropped),
    /// and applies its relationships' delete rules: related objects are let go of (`.nullify`)
    /// or deleted too (`.cascade`, to any depth; cycles end). `.deny` is checked at save.
    ///
    /// ```swift
    /// context.delete(project)      // with deleteRule: .cascade, its tasks are deleted too
    /// try context.save()
    /// ```
    ///
    /// Objects of other contexts are ignored: pass objects of this context only.
    ///
    /// ```swift
    /// context.delete(task)
    /// try context.save()                 // the row is gone; task.isDeleted is true
    /// ```
    public func delete(_ object: ManagedObject) {
        var work = [object]
        while let next = work.popLast() {
            guard next.managedObjectContext === self, !next.deletedFlag else { continue }
            if !next.entity.relationships.isEmpty { work += applyDeleteRules(to: next) }
            markDeleted(next)
        }
    }

    private func markDeleted(_ object: ManagedObject) {
        if undoManager != nil { undoRecordWillDelete(object) }
        // Loaded lists holding it must look at their objects again (and derived ones recompute).
        graph.advance()
        object.deletedFlag = true
        if object.insertedFlag {
            object.insertedFlag = false
            registry.noteInsertDropped(temporaryKey: object.objectID.key)
            object.managedObjectContext = nil
            if !pendingNotice.cancelInsert(object) {
                pendingNotice.queueDelete(object)
            }
            pendingNotice.cancelUpdate(object)
            return
        }
        // A pending update stays queued: if the deletion is rolled back before observers hear
        // of it, they still need the change that came before it (a reported deletion hides it).
        changeTracker.noteDeleted(object)
        pendingNotice.queueDelete(object)
    }

    /// Called from a registered object's `deinit`: it leaves the identity map (which does not
    /// retain it). Must not retain the object.
    func objectWillDeallocate(_ object: ManagedObject) {
        registry.held(object.entity)?.byKey.remove(object.identityKey, ifIdenticalTo: object)
    }

    /// Called by an object before one of its slots changes to a different value.
    func objectWillChange(_ object: ManagedObject, slot: Int) {
        // An unsaved insert not yet reported: its changes are part of the insertion.
        if object.insertedFlag && object.insertUnprocessed { return }
        if undoManager != nil { undoRecordWillChange(object) }
        // Saved objects (deleted ones too) keep what they had, to save or roll back the change.
        changeTracker.noteWillChange(object)
        // Reported as inserted anyway (a rolled-back deletion): no separate update.
        if object.insertUnprocessed { return }
        pendingNotice.queueUpdate(object, slot: slot)
    }

    // MARK: Looking objects up

    /// This context's instance of the object with `objectID`, reading it from the store if
    /// needed; nil when there is no such object (or it is deleted).
    ///
    /// ```swift
    /// let id = task.objectID                                           // Sendable
    /// let mine = otherContext.object(with: id) as? TaskItem            // that context's own instance
    /// ```
    public func object(with objectID: ObjectID) -> ManagedObject? {
        try? existingObject(with: objectID)
    }

    /// This context's instance of the object with `objectID`.
    ///
    /// ```swift
    /// guard let task = try context.existingObject(with: id) as? TaskItem else { return }
    /// ```
    ///
    /// - Throws: ``PersistError`` `.objectNotFound` when the store has no such object, or it
    ///   belongs to another store or entity this model lacks.
    public func existingObject(with objectID: ObjectID) throws -> ManagedObject {
        let entity = try entity(of: objectID)
        if objectID.isTemporary {
            if let object = registry.insertedOrder.first(where: { $0.insertedFlag && $0.objectID == objectID }) {
                return object
            }
            throw PersistError(.objectNotFound, "No unsaved object with this temporary ID in this context",
                               entity: entity.name, objectIDs: [objectID])
        }
        if let object = registry.object(of: entity, key: objectID.key) {
            return object   // pending deletions stay registered, reporting isDeleted
        }
        let objects = try readObjects(entity: entity, keys: [objectID.key])
        guard let object = objects.first else {
            throw PersistError(.objectNotFound, "No object with this ID in the store", entity: entity.name, objectIDs: [objectID])
        }
        return object
    }

    /// The entity for `ManagedObject.init(context:)`: the model's, else the class's own (the
    /// next save then reports that it is not in the model).
    func entityForInsert(_ objectClass: ManagedObject.Type) -> EntityDescription {
        let key = ObjectIdentifier(objectClass)
        if key == lastInsertClass, let entity = lastInsertEntity { return entity }
        let entity: EntityDescription
        if let modelled = model.entity(for: objectClass) {
            entity = modelled
        } else if case .success(let described) = EntityReflection.entity(for: objectClass) {
            entity = described
        } else {
            entity = ManagedObject.invalidEntity(for: objectClass)
        }
        lastInsertClass = key
        lastInsertEntity = entity
        return entity
    }

    /// The saved objects of `entity` this context holds (see ``ObjectRegistry``).
    @inline(__always)
    func entityObjects(_ entity: EntityDescription) -> EntityObjects {
        registry.objects(of: entity)
    }

    // MARK: Observing

    /// Calls `body` with every change notice, synchronously inside
    /// ``processPendingChanges()``, until the token is cancelled or released.
    ///
    /// ```swift
    /// let token = context.addObserver { changes in
    ///     for object in changes.deleted { forget(object.objectID) }
    /// }
    /// ```
    public func addObserver(_ body: @escaping (ContextChanges) -> Void) -> ObservationToken {
        let id = observers.add(body)
        return ObservationToken { [weak self] in
            self?.observers.remove(id)
        }
    }
}
