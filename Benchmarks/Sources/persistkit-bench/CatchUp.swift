import CSQLiteBench
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
/// fresh `performFetch()` of the same request (on a new context of the same container), and
/// the goal compares the medians (issue 14: catching up costs at most 1.5 times a fresh
/// `performFetch()`). Callgrind counts the catch-up, or with `--profile-reference` the fresh
/// fetch.
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

    return Subject(.persistkit, round: { index in
        let other = otherProcess.newContext()   // setup, not timed
        for task in try other.fetch(PersistKitBench.allRequest) { other.delete(task) }
        try other.save()
        PersistKitBench.insert(env.tasks, into: other)
        try other.save()

        let before = probe.deliveries
        let start = now()
        profiled(!env.config.profileReference) { context.processPendingChanges() }   // the sample is start to delivery
        guard probe.deliveries == before + 1, controller.fetchedObjects.count == env.tasks.count else {
            throw BenchError("the controller delivered \(probe.deliveries - before) change sets and holds "
                + "\(controller.fetchedObjects.count) objects after the other process's commit")
        }
        let sample = ms(start, probe.deliveredAt)
        let fresh = FetchedResultsController(fetchRequest: PersistKitBench.sortedRequest, context: container.newContext(),
                                             sectionNameKeyPath: \BenchTask.isComplete)
        let freshStart = now()
        try profiled(env.config.profileReference) { try fresh.performFetch() }
        if index > 0 { probe.freshFetches.append(ms(freshStart, now())) }   // as the samples: no warm-up
        return ([sample], "")
    }, teardown: {
        token.cancel()
        _ = otherProcess
        env.directories.remove(url)
    }, reference: { median(probe.freshFetches) })
}

/// Runs `body`, marked for callgrind (`--collect-atstart=no`) when `isProfiled`, as `time` marks
/// the measured region of other workloads.
private func profiled(_ isProfiled: Bool, _ body: () throws -> Void) rethrows {
    if isProfiled { bench_callgrind_toggle_collect() }
    defer { if isProfiled { bench_callgrind_toggle_collect() } }
    try body()
}
