/// Undo and redo for a ``ManagedObjectContext``: Core Data's `undoManager`, as a PersistKit type
/// (swift-corelibs-foundation has no `UndoManager`).
///
/// A context has none until you give it one; then every change made in it is recorded, one
/// group per ``ManagedObjectContext/processPendingChanges()`` (which saves and fetches run
/// first), or per explicit ``beginUndoGrouping()``/``endUndoGrouping()`` pair:
///
/// ```swift
/// let undo = ContextUndoManager()
/// context.undoManager = undo
/// task.name = "Buy oat milk"
/// context.processPendingChanges()     // closes the group
/// undo.undo()                         // task.name is "Buy milk" again
/// undo.redo()                         // and "Buy oat milk"
/// ```
///
/// Undo puts back attribute values, relationships on both sides (to-one, to-many, ordered
/// positions, many-to-many), removes inserted objects and brings deleted ones back (the same
/// instances, with their relationships, and with what a cascade deleted with them). It goes
/// through the context's ordinary change paths, so observers, controllers and Observation hear
/// an undo or a redo like any other change. Undo after a save makes the undone change a pending
/// change again: the next save writes the reverse. A deletion that was already saved comes back
/// as a new insert of the same instance (its row is gone, so its ``ObjectID`` is a new one).
///
/// ``ManagedObjectContext/rollback()`` and ``ManagedObjectContext/reset()`` remove every
/// action, as in Core Data. Changes merged from other contexts' saves are not recorded: they
/// are not this context's to undo.
///
/// Like its context, an undo manager is not `Sendable`: use it where the context is used.
public final class ContextUndoManager {
    /// Whether each ``ManagedObjectContext/processPendingChanges()`` closes the open group (on
    /// by default). Off, only ``endUndoGrouping()`` closes a group, and changes made outside
    /// a ``beginUndoGrouping()``/``endUndoGrouping()`` pair are not recorded.
    public var groupsByEvent = true
    /// How many groups are kept for undo (and for redo); the oldest go first. 0, the default,
    /// keeps every group.
    ///
    /// ```swift
    /// undo.levelsOfUndo = 20     // an import's thousand edits keep only the last 20 groups
    /// ```
    public var levelsOfUndo = 0 {
        didSet { trim() }
    }
    /// Whether ``undo()`` is running (its changes are being recorded for ``redo()``).
    public private(set) var isUndoing = false
    /// Whether ``redo()`` is running.
    public private(set) var isRedoing = false
    /// How many ``beginUndoGrouping()`` calls are not yet ended.
    public private(set) var groupingLevel = 0

    /// The context this manager records (set by ``ManagedObjectContext/undoManager``).
    weak var context: ManagedObjectContext?
    private var undoStack: [UndoGroup] = []
    private var redoStack: [UndoGroup] = []
    /// The group changes go into now (nil until the first change of the group).
    private var openGroup: UndoGroup?
    /// The name set for the open group before its first change.
    private var pendingActionName = ""
    /// While undoing or redoing: the group that records the reverse.
    private var reverseGroup: UndoGroup?
    private var registrationDisabled = 0

    /// Makes an undo manager; give it to a context with ``ManagedObjectContext/undoManager``.
    public init() {}

    // MARK: State

    /// Whether there is a group to undo (the open group counts, once it holds a change).
    public var canUndo: Bool {
        !undoStack.isEmpty || openGroup?.isEmpty == false
    }

    /// Whether there is a group to redo.
    public var canRedo: Bool {
        !redoStack.isEmpty
    }

    /// The action name of the group ``undo()`` would undo ("" when none was set).
    public var undoActionName: String {
        if let openGroup, !openGroup.isEmpty { return openGroup.actionName }
        return undoStack.last?.actionName ?? ""
    }

    /// The action name of the group ``redo()`` would redo.
    public var redoActionName: String {
        redoStack.last?.actionName ?? ""
    }

    /// Names the group being recorded, for an Undo menu item.
    ///
    /// ```swift
    /// undo.setActionName("Rename")
    /// task.name = "Buy oat milk"
    /// context.processPendingChanges()
    /// undo.undoActionName           // "Rename"
    /// ```
    public func setActionName(_ name: String) {
        if let openGroup { openGroup.actionName = name } else { pendingActionName = name }
    }

    /// Whether changes are recorded now (see ``disableUndoRegistration()``).
    public var isUndoRegistrationEnabled: Bool { registrationDisabled == 0 }

    /// Stops recording changes until the matching ``enableUndoRegistration()`` (calls nest):
    /// for changes the user should not undo, such as filling in defaults.
    public func disableUndoRegistration() {
        context?.processPendingChanges()
        registrationDisabled += 1
    }

    /// Records changes again after ``disableUndoRegistration()``.
    public func enableUndoRegistration() {
        guard registrationDisabled > 0 else { return }
        context?.processPendingChanges()
        registrationDisabled -= 1
    }

    // MARK: Grouping

    /// Opens a group: everything until the matching ``endUndoGrouping()`` is undone at once.
    /// Groups nest; an inner group is part of the outer one. Pending changes are processed
    /// first (Core Data's checkpoint), so the group holds only what follows.
    ///
    /// ```swift
    /// undo.beginUndoGrouping()
    /// task.name = "Buy oat milk"
    /// task.project = errands
    /// undo.endUndoGrouping()
    /// undo.undo()                   // both changes are undone
    /// ```
    public func beginUndoGrouping() {
        context?.processPendingChanges()
        groupingLevel += 1
    }

    /// Closes the group ``beginUndoGrouping()`` opened (an unmatched call does nothing).
    public func endUndoGrouping() {
        guard groupingLevel > 0 else { return }
        context?.processPendingChanges()
        groupingLevel -= 1
        if groupingLevel == 0 { closeOpenGroup() }
    }

    // MARK: Undo and redo

    /// Undoes the last group (closing the open one first), recording the reverse for
    /// ``redo()``; observers hear the changes at once. Does nothing when there is nothing to
    /// undo, while an undo or redo runs, or when the context is gone.
    public func undo() {
        applyLast(undoing: true)
    }

    /// Redoes the last group undone; observers hear the changes at once. A new change (a group
    /// closed with changes) empties the redo stack.
    public func redo() {
        applyLast(undoing: false)
    }

    /// Pops the last group of the undo (or redo) stack, applies it, and pushes its reverse on
    /// the other stack.
    private func applyLast(undoing: Bool) {
        guard let context, !isUndoing, !isRedoing else { return }
        closeForUndo(context)
        guard let group = undoing ? undoStack.popLast() : redoStack.popLast() else { return }
        if undoing { isUndoing = true } else { isRedoing = true }
        let reverse = apply(group, in: context)
        isUndoing = false
        isRedoing = false
        if undoing { redoStack.append(reverse) } else { undoStack.append(reverse) }
        trim()
        context.processPendingChanges()
    }

    /// Forgets every group, for undo and for redo (the open one too).
    public func removeAllActions() {
        undoStack.removeAll()
        redoStack.removeAll()
        openGroup = nil
        pendingActionName = ""
        groupingLevel = 0
    }

    // MARK: Recording (called by the context)

    /// The group a change is recorded in now; nil when changes are not recorded.
    func recordingGroup() -> UndoGroup? {
        if let reverseGroup { return reverseGroup }
        guard registrationDisabled == 0, groupsByEvent || groupingLevel > 0 else { return nil }
        if let openGroup { return openGroup }
        let group = UndoGroup()
        group.actionName = pendingActionName
        pendingActionName = ""
        openGroup = group
        return group
    }

    /// The context processed its pending changes: that closes the open group when groups
    /// follow events and no explicit group is open.
    func contextProcessedPendingChanges() {
        guard reverseGroup == nil, groupsByEvent, groupingLevel == 0 else { return }
        closeOpenGroup()
    }

    private func closeOpenGroup() {
        guard let group = openGroup else { return }
        openGroup = nil
        guard !group.isEmpty else { return }
        undoStack.append(group)
        redoStack.removeAll()
        trim()
    }

    /// Before an undo or redo: pending changes processed, the open groups closed.
    private func closeForUndo(_ context: ManagedObjectContext) {
        context.processPendingChanges()
        groupingLevel = 0
        closeOpenGroup()
    }

    /// Applies `group`'s records through the context, recording the reverse.
    private func apply(_ group: UndoGroup, in context: ManagedObjectContext) -> UndoGroup {
        let reverse = UndoGroup()
        reverse.actionName = group.actionName
        reverseGroup = reverse
        defer { reverseGroup = nil }
        context.undoApply(group, recordingInto: reverse)
        return reverse
    }

    private func trim() {
        guard levelsOfUndo > 0 else { return }
        if undoStack.count > levelsOfUndo { undoStack.removeFirst(undoStack.count - levelsOfUndo) }
        if redoStack.count > levelsOfUndo { redoStack.removeFirst(redoStack.count - levelsOfUndo) }
    }
}
