/// The kinds of change a results controller reports to its delegate.
///
/// ```swift
/// func controller(_ controller: FetchedResultsController<TaskItem>, didChange task: TaskItem,
///                 at indexPath: IndexPath?, for type: ResultsChangeType, newIndexPath: IndexPath?) {
///     switch (type, indexPath, newIndexPath) {
///     case (.insert, _, let new?): tableView.insertRows(at: [new], with: .automatic)
///     case (.delete, let old?, _): tableView.deleteRows(at: [old], with: .automatic)
///     case (.move, let old?, let new?): tableView.moveRow(at: old, to: new)
///     case (.update, let old?, _): tableView.reloadRows(at: [old], with: .none)
///     default: break
///     }
/// }
/// ```
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
