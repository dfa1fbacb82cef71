/// One section of a ``FetchedResultsController``'s results.
public struct ResultsSection<Result: ManagedObject> {
    /// The section key's value as text: `true`/`false` for booleans, decimal numbers,
    /// strings as they are, dates in ISO 8601, UUIDs in their standard form, and the empty
    /// string for nil (nil is a section of its own).
    public let name: String
    /// The first character of the name, uppercased; nil for an empty name.
    public let indexTitle: String?
    /// The section's objects, in order.
    public let objects: [Result]
    /// How many objects the section has.
    public var numberOfObjects: Int { objects.count }
}

/// The kinds of change a results controller reports to its delegate.
public enum ResultsChangeType: Sendable {
    /// A row or section appeared.
    case insert
    /// A row or section went away.
    case delete
    /// A row moved.
    case move
    /// A row's object changed but kept its position.
    case update
}

/// Core Data's four results-controller callbacks, called in order inside one change:
/// will-change, sections (deletions then insertions), objects (deletions, insertions, moves,
/// updates), did-change. Every method has an empty default.
public protocol FetchedResultsControllerDelegate: AnyObject {
    /// A change is about to be reported.
    func controllerWillChangeContent(_ controller: AnyObject)
    /// A section was inserted or deleted (`index` is old for deletions, new for insertions).
    func controller(_ controller: AnyObject, didChangeSectionNamed name: String, atSectionIndex index: Int,
                    for type: ResultsChangeType)
    /// An object was inserted, deleted, moved or updated. `indexPath` is its old path (nil for an
    /// insertion), `newIndexPath` its new one (nil for a deletion).
    func controller(_ controller: AnyObject, didChange object: ManagedObject, at indexPath: IndexPath?,
                    for type: ResultsChangeType, newIndexPath: IndexPath?)
    /// The change has been reported.
    func controllerDidChangeContent(_ controller: AnyObject)
}

extension FetchedResultsControllerDelegate {
    /// Does nothing.
    public func controllerWillChangeContent(_ controller: AnyObject) {}
    /// Does nothing.
    public func controller(_ controller: AnyObject, didChangeSectionNamed name: String, atSectionIndex index: Int,
                           for type: ResultsChangeType) {}
    /// Does nothing.
    public func controller(_ controller: AnyObject, didChange object: ManagedObject, at indexPath: IndexPath?,
                           for type: ResultsChangeType, newIndexPath: IndexPath?) {}
    /// Does nothing.
    public func controllerDidChangeContent(_ controller: AnyObject) {}
}

import Foundation
