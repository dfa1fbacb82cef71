import Foundation

extension FetchedResultsController {
    /// Reports a change: to the delegate, then to the `observe` blocks in the order they were
    /// added, then to the `changes` sequences. Nothing for an empty change.
    ///
    /// - Parameters:
    ///   - oldSectionKeys: The section keys before the change, to name deleted sections.
    ///   - leavingObject: The object that was at an old path, for deleted rows.
    func deliver(_ change: ChangeSet, oldSectionKeys: [SQLValue], leavingObject: (IndexPath) -> ManagedObject?) {
        guard !change.isEmpty else { return }
        invalidateSections()
        if let delegate {
            notify(delegate, of: change, oldSectionKeys: oldSectionKeys, leavingObject: leavingObject)
        }
        for id in observers.keys.sorted() { observers[id]?(change) }
        for continuation in continuations.values { continuation.yield(change) }
    }

    /// Core Data's sequence of delegate calls for one change.
    private func notify(_ delegate: any FetchedResultsControllerDelegate<Result>, of change: ChangeSet,
                        oldSectionKeys: [SQLValue], leavingObject: (IndexPath) -> ManagedObject?) {
        delegate.controllerWillChangeContent(self)
        for index in change.deletedSections where index < oldSectionKeys.count {
            delegate.controller(self, didChangeSectionNamed: sectionName(oldSectionKeys[index]), atSectionIndex: index, for: .delete)
        }
        for index in change.insertedSections where index < core.sectionKeys.count {
            delegate.controller(self, didChangeSectionNamed: sectionName(core.sectionKeys[index]), atSectionIndex: index, for: .insert)
        }
        for path in change.deletedRows {
            guard let object = leavingObject(path) else { continue }
            delegate.controller(self, didChange: unsafeDowncast(object, to: Result.self), at: path, for: .delete, newIndexPath: nil)
        }
        for path in change.insertedRows {
            guard let object = object(at: path) else { continue }
            delegate.controller(self, didChange: object, at: nil, for: .insert, newIndexPath: path)
        }
        for move in change.movedRows {
            guard let object = object(at: move.to) else { continue }
            delegate.controller(self, didChange: object, at: move.from, for: .move, newIndexPath: move.to)
        }
        for update in change.updatedRows {
            guard let object = object(at: update.to) else { continue }
            delegate.controller(self, didChange: object, at: update.from, for: .update, newIndexPath: update.to)
        }
        delegate.controllerDidChangeContent(self)
    }

    // MARK: Section names

    /// A section key's value as a section name (see ``ResultsSection/name``).
    func sectionName(_ key: SQLValue) -> String {
        guard let name = sectionNameKey, let entity = plan?.entity,
              let attribute = entity.attribute(named: name) ?? Self.relatedAttribute(name, in: entity) else { return "" }
        if key.isNull { return "" }
        switch attribute.type {
        case .boolean: return Bool(storedValue: key).map { $0 ? "true" : "false" } ?? key.description
        case .date:
            guard let date = Date(storedValue: key) else { return key.description }
            return ISO8601DateFormatter().string(from: date)
        case .uuid: return UUID(storedValue: key)?.uuidString ?? key.description
        case .binary:
            if case .blob(let data) = key { return data.base64EncodedString() }
            return key.description
        default:
            switch key {
            case .text(let text): return text
            case .integer(let value): return String(value)
            case .real(let value): return String(value)
            default: return key.description
            }
        }
    }

    /// The attribute a section key path through to-ones names (`project.name`: Project's name).
    private static func relatedAttribute(_ keyPath: String, in entity: EntityDescription) -> AttributeDescription? {
        guard PredicateKey.isPath(keyPath), let resolved = try? PredicateKey.resolve(keyPath, in: entity),
              case .attribute(let attribute) = resolved.target else { return nil }
        return attribute
    }
}
