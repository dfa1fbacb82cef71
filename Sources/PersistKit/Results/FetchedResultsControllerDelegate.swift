import Foundation

/// Core Data's four results-controller callbacks, with the typed controller and objects.
///
/// A ``FetchedResultsController`` calls its ``FetchedResultsController/delegate`` once per
/// change, in this order, synchronously inside the context's
/// ``ManagedObjectContext/processPendingChanges()`` and before the controller's
/// ``FetchedResultsController/observe(_:)`` blocks and ``FetchedResultsController/changes``
/// sequences hear of the same change:
///
/// 1. ``controllerWillChangeContent(_:)``;
/// 2. ``controller(_:didChangeSectionNamed:atSectionIndex:for:)`` for each deleted section
///    (old index, in ascending order), then each inserted section (new index, ascending);
/// 3. ``controller(_:didChange:at:for:newIndexPath:)`` for each deleted row, then each inserted,
///    moved and updated row, in the order of the ``ChangeSet``;
/// 4. ``controllerDidChangeContent(_:)``.
///
/// When the delegate is called the controller already holds the new results: `sections`,
/// `object(at:)` and `indexPath(forObject:)` answer for the new state, as the index paths of
/// insertions and moves expect. Every method has an empty default, so implement only those you
/// need. A delegate serves controllers of one result type, which it names by implementing a
/// method (or by `typealias Result = TaskItem`).
///
/// ```swift
/// final class TaskList: FetchedResultsControllerDelegate {
///     func controller(_ controller: FetchedResultsController<TaskItem>, didChange task: TaskItem,
///                     at indexPath: IndexPath?, for type: ResultsChangeType, newIndexPath: IndexPath?) {
///         print(type, task.name, indexPath as Any, newIndexPath as Any)
///     }
/// }
/// results.delegate = list      // results: FetchedResultsController<TaskItem>; held weakly
/// ```
public protocol FetchedResultsControllerDelegate<Result>: AnyObject {
    /// The type of the objects the controllers this delegate serves fetch.
    associatedtype Result: ManagedObject

    /// A change is about to be reported.
    func controllerWillChangeContent(_ controller: FetchedResultsController<Result>)

    /// A section was inserted or deleted.
    ///
    /// - Parameters:
    ///   - controller: The controller whose results changed.
    ///   - name: The section's name (``ResultsSection/name``): for a deleted section, the name it had.
    ///   - index: The section's index: in the old results for a deletion, in the new ones for an insertion.
    ///   - type: `.delete` or `.insert`.
    func controller(_ controller: FetchedResultsController<Result>, didChangeSectionNamed name: String,
                    atSectionIndex index: Int, for type: ResultsChangeType)

    /// An object was inserted, deleted, moved or updated.
    ///
    /// - Parameters:
    ///   - controller: The controller whose results changed.
    ///   - object: The object; for a deletion, the object that left (it may be deleted or no
    ///     longer match).
    ///   - indexPath: Its path in the old results; nil for an insertion.
    ///   - type: What happened to the row.
    ///   - newIndexPath: Its path in the new results; nil for a deletion.
    func controller(_ controller: FetchedResultsController<Result>, didChange object: Result, at indexPath: IndexPath?,
                    for type: ResultsChangeType, newIndexPath: IndexPath?)

    /// The change has been reported.
    func controllerDidChangeContent(_ controller: FetchedResultsController<Result>)
}

extension FetchedResultsControllerDelegate {
    /// Does nothing.
    public func controllerWillChangeContent(_ controller: FetchedResultsController<Result>) {}

    /// Does nothing.
    public func controller(_ controller: FetchedResultsController<Result>, didChangeSectionNamed name: String,
                           atSectionIndex index: Int, for type: ResultsChangeType) {}

    /// Does nothing.
    public func controller(_ controller: FetchedResultsController<Result>, didChange object: Result, at indexPath: IndexPath?,
                           for type: ResultsChangeType, newIndexPath: IndexPath?) {}

    /// Does nothing.
    public func controllerDidChangeContent(_ controller: FetchedResultsController<Result>) {}
}
