extension ManagedObject {
    /// What the object's context thinks of it, in one byte: each flag below, and how it moves.
    ///
    /// ```text
    ///                 init(context:) / insert(_:)
    ///   detached ──────────────────────────────► inserted + insertPending
    ///                                                │ processPendingChanges()
    ///                                                ▼
    ///                                            inserted ──── delete(_:) ───► deleted (detached: the context lets it go)
    ///                                                │ save()
    ///                                                ▼
    ///   fetched / merged ──────────────────────► saved (registered by key; leftUnregistered when the save
    ///                                                │                          or a batched walk let it go)
    ///                          delete(_:)            │ another context's or process's delete (merge)
    ///                ┌───────────────────────────────┤
    ///                ▼                               ▼
    ///        deleted (pending here) ──save()──► deleted (for good)     deleted (elsewhere)
    ///                │ rollback()                                            │ a save settling the row back
    ///                ▼                                                       ▼
    ///              saved                                                   saved
    /// ```
    ///
    /// `insertPending` is also set on a saved object another context's save inserted, until
    /// the notice that reports it (`PendingNotice.queueInsert`); a rolled-back deletion of an
    /// unsaved insert is reported as an insertion again the same way. `probe` marks the
    /// objects `KeyPathProbe` and the entity's reflection read key paths on: never inserted.
    ///
    /// The flags are set only by the transitions above (in the context's insert, delete,
    /// save, rollback, merge and batched-walk code); each reads and writes one bit.
    ///
    /// The flags are computed, not stored constants, so that reading one (the `@Attribute`
    /// getter tests `probe`, inlined into the app's code) is a bit test, not a global's accessor.
    @usableFromInline
    struct Lifecycle: OptionSet {
        @usableFromInline let rawValue: UInt8
        @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Inserted into a context and not yet saved (or deleted).
        static var inserted: Lifecycle { Lifecycle(rawValue: 1 << 0) }
        /// To be reported as inserted by the next notice: changes made meanwhile are part of
        /// the insertion.
        static var insertPending: Lifecycle { Lifecycle(rawValue: 1 << 1) }
        /// Deleted: pending in its context, saved, or deleted by another context or process.
        static var deleted: Lifecycle { Lifecycle(rawValue: 1 << 2) }
        /// Saved by its context's last save (or let go by a batched walk) and unregistered
        /// because nothing else held it: its `deinit` has no identity-map entry to remove.
        static var leftUnregistered: Lifecycle { Lifecycle(rawValue: 1 << 3) }
        /// A probe object that key paths are read on (`KeyPathProbe`, the entity's probe).
        @inlinable static var probe: Lifecycle { Lifecycle(rawValue: 1 << 4) }
        /// In a context whose reads register with Swift's Observation
        /// (``ManagedObjectContext/isObservable``): the getters take their slow path.
        @inlinable static var tracksReads: Lifecycle { Lifecycle(rawValue: 1 << 5) }
        /// Has a registrar (`ObjectObservation`): its changes are announced, its `deinit`
        /// lets the registrar go. Set by a tracked read, kept for the object's life.
        static var observed: Lifecycle { Lifecycle(rawValue: 1 << 6) }
        /// Keeps the successor of its freed context alive (`ContextSuccessors`): its `deinit`
        /// lets it go.
        static var keepsSuccessor: Lifecycle { Lifecycle(rawValue: 1 << 7) }
    }

    /// Inserted into its context and not yet saved.
    var insertedFlag: Bool {
        @inline(__always) get { lifecycle.contains(.inserted) }
        @inline(__always) set { lifecycle.set(.inserted, newValue) }
    }
    /// Deleted here (pending or saved) or elsewhere.
    var deletedFlag: Bool {
        @inline(__always) get { lifecycle.contains(.deleted) }
        @inline(__always) set { lifecycle.set(.deleted, newValue) }
    }
    /// To be reported as inserted by the next notice (see `Lifecycle.insertPending`).
    var insertUnprocessed: Bool {
        @inline(__always) get { lifecycle.contains(.insertPending) }
        @inline(__always) set { lifecycle.set(.insertPending, newValue) }
    }
    /// Let go unregistered by a save or a batched walk (see `Lifecycle.leftUnregistered`).
    var leftUnregistered: Bool {
        @inline(__always) get { lifecycle.contains(.leftUnregistered) }
        @inline(__always) set { lifecycle.set(.leftUnregistered, newValue) }
    }
    /// A probe that key paths are read on (see `KeyPathProbe`).
    @inlinable var isProbe: Bool {
        @inline(__always) get { lifecycle.rawValue & Lifecycle.probe.rawValue != 0 }
    }
    /// Whether a getter must do more than read its slot: record a probe's read, or register
    /// the read with Observation. One test for both on the getters' path.
    @inlinable var readsNeedNoting: Bool {
        @inline(__always) get { lifecycle.rawValue & (Lifecycle.probe.rawValue | Lifecycle.tracksReads.rawValue) != 0 }
    }
    /// A probe, or watched by Observation: either way never refilled with another row.
    var isProbeOrObserved: Bool {
        @inline(__always) get { lifecycle.rawValue & (Lifecycle.probe.rawValue | Lifecycle.observed.rawValue) != 0 }
    }
    /// Whether the object has an Observation registrar (see `Lifecycle.observed`).
    var isObserved: Bool {
        @inline(__always) get { lifecycle.contains(.observed) }
    }
}

extension ManagedObject.Lifecycle {
    /// Turns `flag` on or off.
    @inline(__always)
    mutating func set(_ flag: ManagedObject.Lifecycle, _ on: Bool) {
        if on { insert(flag) } else { remove(flag) }
    }
}
