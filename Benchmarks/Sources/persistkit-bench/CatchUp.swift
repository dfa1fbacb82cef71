import Foundation
import PersistKit

// MARK: - PersistKit: a controller catching up with another process

/// What the catch-up workload's observer saw, and the fresh fetches it is compared with.
private final class CatchUpProbe {
    var deliveredAt: UInt64 = 0
    var deliveries = 0
    var freshFetches: [Double] = []
}

/// A controller over every task (two sections, `isComplete`), while another container on the
/// same file (another process, to PersistKit: it learns of the commit only through
/// `PRAGMA data_version`) deletes every task and inserts them again. Each sample runs from
/// `processPendingChanges()` to the observer holding the ChangeSet; each round also times a
/// fresh `performFetch()` of the same request, and the teardown logs the ratio (issue goal:
/// catching up costs at most about 1.5 times a fresh `performFetch()`).
func persistKitControllerCatchUp(_ env: Environment) throws -> Subject {
    let url = try env.directories.newStoreURL("persistkit-controller-catch-up")
    let container = try PersistKitBench.populatedContainer(url, model: env.model, tasks: env.tasks)
    let otherProcess = try PersistKitBench.openContainer(url, model: env.model)
    let context = container.newContext()
    let controller = FetchedResultsController(fetchRequest: PersistKitBench.sortedRequest, context: context,
                                              sectionNameKeyPath: \BenchTask.isComplete)
    try controller.performFetch()
    let probe = CatchUpProbe()
    let token = controller.observe { _ in
        probe.deliveredAt = now()
        probe.deliveries += 1
    }

    return Subject(.persistkit, round: { _ in
        let other = otherProcess.newContext()   // setup, not timed
        for task in try other.fetch(PersistKitBench.allRequest) { other.delete(task) }
        try other.save()
        PersistKitBench.insert(env.tasks, into: other)
        try other.save()

        let before = probe.deliveries
        let start = now()
        _ = time { context.processPendingChanges() }   // the sample is start to delivery
        guard probe.deliveries == before + 1, controller.fetchedObjects.count == env.tasks.count else {
            throw BenchError("the controller delivered \(probe.deliveries - before) change sets and holds "
                + "\(controller.fetchedObjects.count) objects after the other process's commit")
        }
        let sample = ms(start, probe.deliveredAt)
        let fresh = FetchedResultsController(fetchRequest: PersistKitBench.sortedRequest, context: container.newContext(),
                                             sectionNameKeyPath: \BenchTask.isComplete)
        let freshStart = now()   // not `time`: a profile of the workload shows the catch-up only
        try fresh.performFetch()
        probe.freshFetches.append(ms(freshStart, now()))
        return ([sample], "")
    }, teardown: {
        if let fresh = median(probe.freshFetches) {
            log(String(format: "  fresh performFetch: %.1f ms (catch-up goal: <= 1.5x, %.1f ms)", fresh, fresh * 1.5))
        }
        token.cancel()
        _ = otherProcess
        env.directories.remove(url)
    })
}
