import Foundation
import PersistKit
import PersistKitTestSupport
import XCTest

/// The code of the DocC article Observing Results, compiled and run against a stand-in for
/// UIKit's `UITableView` with its signatures (`DocumentationCodeBlocksTests` checks that every
/// block of the article stands here).
enum ObservingResultsArticle {
    final class TaskItem: ManagedObject {
        override class var entityName: String { "Task" }
        @Attribute var name: String
        @Attribute var isComplete = false
        @Attribute var due: Date?
        @Relationship(inverse: \Project.tasks) var project: Project?
    }

    final class Project: ManagedObject {
        @Attribute var name: String
        @Relationship var tasks: Set<TaskItem>
    }

    /// UIKit's `UITableView`, as far as the article uses it: each call is logged.
    final class UITableView {
        enum RowAnimation { case automatic }
        var log: [String] = []
        func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
            log.append("batch")
            updates?()
            completion?(true)
        }
        func beginUpdates() { log.append("begin") }
        func endUpdates() { log.append("end") }
        func insertSections(_ sections: IndexSet, with animation: RowAnimation) { log.append("insert sections \(Array(sections))") }
        func deleteSections(_ sections: IndexSet, with animation: RowAnimation) { log.append("delete sections \(Array(sections))") }
        func insertRows(at indexPaths: [IndexPath], with animation: RowAnimation) { log.append("insert rows \(indexPaths)") }
        func deleteRows(at indexPaths: [IndexPath], with animation: RowAnimation) { log.append("delete rows \(indexPaths)") }
        func reloadRows(at indexPaths: [IndexPath], with animation: RowAnimation) { log.append("reload rows \(indexPaths)") }
        func moveRow(at indexPath: IndexPath, to newIndexPath: IndexPath) { log.append("move \(indexPath) \(newIndexPath)") }
    }

    static func observe(in context: ManagedObjectContext, tableView: UITableView)
        throws -> (FetchedResultsController<TaskItem>, ObservationToken) {
        let request = FetchRequest<TaskItem>(sortBy: [FetchSortDescriptor(\.isComplete), FetchSortDescriptor(\.due, nils: .last)])
        let results = FetchedResultsController(fetchRequest: request, context: context,
                                               sectionNameKeyPath: \.isComplete)
        try results.performFetch()
        let token = results.observe { change in           // keep the token; cancel() stops the calls
            tableView.performBatchUpdates {               // a UIKit UITableView
                tableView.deleteSections(change.deletedSections, with: .automatic)
                tableView.insertSections(change.insertedSections, with: .automatic)
                tableView.deleteRows(at: change.deletedRows, with: .automatic)
                tableView.insertRows(at: change.insertedRows, with: .automatic)
                for move in change.movedRows { tableView.moveRow(at: move.from, to: move.to) }
            }
            for update in change.updatedRows { tableView.reloadRows(at: [update.to], with: .automatic) }
        }
        return (results, token)
    }

    final class TaskListUpdater: FetchedResultsControllerDelegate {
        let tableView: UITableView
        init(tableView: UITableView) { self.tableView = tableView }

        func controllerWillChangeContent(_ controller: FetchedResultsController<TaskItem>) {
            tableView.beginUpdates()
        }
        func controller(_ controller: FetchedResultsController<TaskItem>, didChangeSectionNamed name: String,
                        atSectionIndex index: Int, for type: ResultsChangeType) {
            switch type {
            case .insert: tableView.insertSections([index], with: .automatic)
            case .delete: tableView.deleteSections([index], with: .automatic)
            default: break
            }
        }
        func controller(_ controller: FetchedResultsController<TaskItem>, didChange task: TaskItem,
                        at indexPath: IndexPath?, for type: ResultsChangeType, newIndexPath: IndexPath?) {
            switch (type, indexPath, newIndexPath) {
            case (.insert, _, let new?): tableView.insertRows(at: [new], with: .automatic)
            case (.delete, let old?, _): tableView.deleteRows(at: [old], with: .automatic)
            case (.move, let old?, let new?): tableView.moveRow(at: old, to: new)
            case (.update, let old?, _): tableView.reloadRows(at: [old], with: .automatic)
            default: break
            }
        }
        func controllerDidChangeContent(_ controller: FetchedResultsController<TaskItem>) {
            tableView.endUpdates()
        }
    }

    static func delegate(of results: FetchedResultsController<TaskItem>, tableView: UITableView) -> TaskListUpdater {
        let updater = TaskListUpdater(tableView: tableView)
        results.delegate = updater   // held weakly: keep the updater
        return updater
    }

    static func sectionsByProject(in context: ManagedObjectContext, home: Project) throws -> FetchedResultsController<TaskItem> {
        let request = FetchRequest<TaskItem>(sortBy: [FetchSortDescriptor(\TaskItem.project?.name), FetchSortDescriptor(\.name)])
        let results = FetchedResultsController(fetchRequest: request, context: context,
                                               sectionNameKeyPath: \TaskItem.project?.name)
        try results.performFetch()
        home.name = "Household"        // at the next processPendingChanges(): Home's section goes,
                                       // Household's comes, holding Home's tasks
        return results
    }
}

final class ObservingResultsArticleTests: XCTestCase {
    func testTheArticleRuns() throws {
        let model = try ManagedObjectModel(entities: [ObservingResultsArticle.TaskItem.self, ObservingResultsArticle.Project.self])
        let context = try PersistentContainer(model: model, store: .inMemory).newContext()
        let home = ObservingResultsArticle.Project(context: context)
        home.name = "Home"
        let task = ObservingResultsArticle.TaskItem(context: context)
        task.name = "Buy milk"
        task.project = home
        try context.save()

        let observed = ObservingResultsArticle.UITableView(), delegated = ObservingResultsArticle.UITableView()
        let (results, token) = try ObservingResultsArticle.observe(in: context, tableView: observed)
        let updater = ObservingResultsArticle.delegate(of: results, tableView: delegated)
        task.isComplete = true
        context.processPendingChanges()
        XCTAssertEqual(observed.log, ["batch", "delete sections [0]", "insert sections [0]", "delete rows [[0, 0]]", "insert rows [[0, 0]]"])
        XCTAssertEqual(delegated.log, ["begin", "delete sections [0]", "insert sections [0]", "delete rows [[0, 0]]", "insert rows [[0, 0]]", "end"])
        token.cancel()
        _ = updater

        let byProject = try ObservingResultsArticle.sectionsByProject(in: context, home: home)
        XCTAssertEqual(byProject.sections.map(\.name), ["Home"])
        context.processPendingChanges()
        XCTAssertEqual(byProject.sections.map(\.name), ["Household"])
    }
}
