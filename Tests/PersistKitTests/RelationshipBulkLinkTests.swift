import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Relating objects one at a time, as code coming from Core Data does in loops
/// (`task.project = project`, `project.tasks.insert(task)`, `tag.tasks.insert(task)`,
/// `task.tags.insert(tag)`, `plan.steps.append(step)`, `step.plan = plan`), gives exactly what
/// one assignment of the whole list gives: both sides, the saved store, the history record and a
/// results controller's changes in another context. A seeded run of random links, unlinks and
/// relinks one at a time is checked against a model of the graph.
final class RelationshipBulkLinkTests: XCTestCase {
    private enum Pattern: String, CaseIterable {
        case taskProject, projectTasksInsert, tagTasksInsert, taskTagsInsert, planStepsAppend, stepPlan
    }

    /// What one run produced, compared between linking one at a time and in one assignment.
    private struct Outcome: Equatable {
        var sides: [String] = []
        var stored: [String] = []
        var history: [String] = []
        var changes: [String] = []
    }

    /// The objects of one run: two of each parent (the second holding the first tenth of the
    /// children at the start, so linking also moves them), and the children.
    private struct Graph {
        var projects: [GProject], tags: [GTag], plans: [GPlan], tasks: [GTask], steps: [GStep]
    }

    func testLinkingOneAtATimeEqualsOneAssignment() throws {
        let size = testSize("RelationshipBulkLinkTests", full: 2_000, ci: 200)
        for pattern in Pattern.allCases {
            for fetched in [false, true] {
                let whole = try run(pattern, size: size, oneAtATime: false, fetched: fetched)
                let single = try run(pattern, size: size, oneAtATime: true, fetched: fetched)
                let what = "\(pattern.rawValue) \(fetched ? "fetched" : "inserted")"
                XCTAssertEqual(single.sides, whole.sides, "\(what): both sides in the context")
                XCTAssertEqual(single.stored, whole.stored, "\(what): the saved store")
                XCTAssertEqual(single.history, whole.history, "\(what): the history record")
                XCTAssertEqual(single.changes, whole.changes, "\(what): the other context's controllers")
                XCTAssertEqual(whole.stored, whole.sides, "\(what): the saved store vs the context")
                XCTAssertFalse(whole.history.isEmpty, what)
                XCTAssertFalse(whole.changes.isEmpty, what)
            }
        }
    }

    // MARK: One run

    private func run(_ pattern: Pattern, size: Int, oneAtATime: Bool, fetched: Bool) throws -> Outcome {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        var context = container.newContext()
        var graph = makeGraph(context, size: size)
        if fetched {
            try context.save()
            context = container.newContext()
            graph = try fetchGraph(context)
        }
        let observer = container.newContext()
        var changes: [String] = []
        let watching = try watch(observer) { changes.append($0) }
        defer { watching.tokens.forEach { $0.cancel() } }
        let before = try container.currentHistoryToken()
        link(pattern, graph, oneAtATime: oneAtATime)
        var outcome = Outcome()
        outcome.sides = describe(graph)
        try context.save()
        outcome.history = try container.history(after: before).flatMap(\.changes).map { change in
            "\(change.kind) \(change.objectID.entityName) \(change.objectID.key) \(change.changedKeys.sorted())"
        }.sorted()
        observer.processPendingChanges()
        outcome.changes = changes
        let reader = container.newContext()
        outcome.stored = describe(try fetchGraph(reader))
        return outcome
    }

    private func makeGraph(_ context: ManagedObjectContext, size: Int) -> Graph {
        func named<T: ManagedObject>(_ count: Int, _ make: (Int) -> T) -> [T] { (0..<count).map(make) }
        let graph = Graph(
            projects: named(2) { let p = GProject(context: context); p.name = "p\($0)"; return p },
            tags: named(2) { let t = GTag(context: context); t.label = "g\($0)"; return t },
            plans: named(2) { let p = GPlan(context: context); p.title = "l\($0)"; return p },
            tasks: named(size) { let t = GTask(context: context); t.title = String(format: "t%05d", $0); return t },
            steps: named(size) { let s = GStep(context: context); s.text = String(format: "s%05d", $0); return s })
        let held = size / 10
        graph.projects[1].tasks = Set(graph.tasks.prefix(held))
        graph.tags[1].tasks = Set(graph.tasks.prefix(held))
        graph.plans[1].steps = Array(graph.steps.prefix(held))
        return graph
    }

    private func fetchGraph(_ context: ManagedObjectContext) throws -> Graph {
        Graph(projects: try context.fetch(FetchRequest<GProject>(sortBy: [FetchSortDescriptor(\.name)])),
              tags: try context.fetch(FetchRequest<GTag>(sortBy: [FetchSortDescriptor(\.label)])),
              plans: try context.fetch(FetchRequest<GPlan>(sortBy: [FetchSortDescriptor(\.title)])),
              tasks: try context.fetch(FetchRequest<GTask>(sortBy: [FetchSortDescriptor(\.title)])),
              steps: try context.fetch(FetchRequest<GStep>(sortBy: [FetchSortDescriptor(\.text)])))
    }

    private func link(_ pattern: Pattern, _ graph: Graph, oneAtATime: Bool) {
        let project = graph.projects[0], tag = graph.tags[0], plan = graph.plans[0]
        switch (pattern, oneAtATime) {
        case (.taskProject, true): for task in graph.tasks { task.project = project }
        case (.projectTasksInsert, true): for task in graph.tasks { project.tasks.insert(task) }
        case (.taskProject, false), (.projectTasksInsert, false): project.tasks = Set(graph.tasks)
        case (.tagTasksInsert, true): for task in graph.tasks { tag.tasks.insert(task) }
        case (.taskTagsInsert, true): for task in graph.tasks { task.tags.insert(tag) }
        case (.tagTasksInsert, false), (.taskTagsInsert, false): tag.tasks = Set(graph.tasks)
        case (.planStepsAppend, true): for step in graph.steps { plan.steps.append(step) }
        case (.stepPlan, true): for step in graph.steps { step.plan = plan }
        case (.planStepsAppend, false), (.stepPlan, false): plan.steps = graph.steps
        }
    }

    /// Every object's relationships, both sides, by name (ordered lists in order).
    private func describe(_ graph: Graph) -> [String] {
        graph.projects.map { "\($0.name): \($0.tasks.map(\.title).sorted())" }
            + graph.tags.map { "\($0.label): \($0.tasks.map(\.title).sorted())" }
            + graph.plans.map { "\($0.title): \($0.steps.map(\.text))" }
            + graph.tasks.map { "\($0.title): \($0.project?.name ?? "-") \($0.tags.map(\.label).sorted())" }
            + graph.steps.map { "\($0.text): \($0.plan?.title ?? "-")" }
    }

    /// Results controllers over each entity of the graph in `context`, reporting their change sets.
    private func watch(_ context: ManagedObjectContext, _ report: @escaping (String) -> Void) throws
        -> (controllers: [AnyObject], tokens: [ObservationToken]) {
        var controllers: [AnyObject] = []
        func observe<T: ManagedObject>(_ request: FetchRequest<T>) throws -> ObservationToken {
            let controller = FetchedResultsController(fetchRequest: request, context: context)
            try controller.performFetch()
            controllers.append(controller)
            return controller.observe { report("\(T.self) \($0)") }
        }
        let tokens = [
            try observe(FetchRequest<GProject>(sortBy: [FetchSortDescriptor(\.name)])),
            try observe(FetchRequest<GTag>(sortBy: [FetchSortDescriptor(\.label)])),
            try observe(FetchRequest<GPlan>(sortBy: [FetchSortDescriptor(\.title)])),
            try observe(FetchRequest<GTask>(sortBy: [FetchSortDescriptor(key: "project.name", nils: .last), FetchSortDescriptor(\.title)])),
            try observe(FetchRequest<GStep>(sortBy: [FetchSortDescriptor(\.text)])),
        ]
        return (controllers, tokens)
    }

    // MARK: Random links one at a time, against a model

    /// The graph as it should be: each task's project and tags, each step's plan and position.
    private struct Model {
        var project: [Int: Int] = [:]
        var tags: [Int: Set<Int>] = [:]
        var plan: [Int: Int] = [:]
        var position: [Int: Int64] = [:]
        var deleted: Set<Int> = []

        /// A plan's steps in order: by position, then saved before unsaved, then by key (how
        /// the store and the context both break ties).
        func steps(of owner: Int, _ graph: Graph) -> [Int] {
            func order(_ step: Int) -> (Int64, Int, Int64) {
                let id = graph.steps[step].objectID
                return (position[step] ?? .max, id.isTemporary ? 1 : 0, id.key)
            }
            return plan.filter { $0.value == owner }.map(\.key).sorted { order($0) < order($1) }
        }
    }

    func testRandomLinksOneAtATimeMatchAModel() throws {
        let seed = testSeed("RelationshipBulkLinkTests.testRandomLinksOneAtATimeMatchAModel")
        var random = SeededGenerator(seed: seed)
        let operations = testSize("RelationshipBulkLinkTests.random", full: 1_500, ci: 300)
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        let context = container.newContext()
        let size = 40
        var graph = makeGraph(context, size: size)
        graph.projects += (2..<4).map { let p = GProject(context: context); p.name = "p\($0)"; return p }
        graph.tags.append(GTag(context: context))
        graph.tags[2].label = "g2"
        graph.plans.append(GPlan(context: context))
        graph.plans[2].title = "l2"
        var model = Model()
        for task in 0..<size / 10 { model.project[task] = 1; model.tags[task] = [1] }
        for step in 0..<size / 10 { model.plan[step] = 1; model.position[step] = Int64(step) }
        var saved: Model?
        if Bool.random(using: &random) {
            try context.save()
            saved = model
        }
        for number in 0..<operations {
            let what = "operation \(number) (seed \(seed))"
            step(graph, &model, context: context, saved: &saved, random: &random)
            if Int.random(in: 0..<4, using: &random) == 0 || number == operations - 1 { check(graph, model, what) }
        }
        try context.save()
        let reader = container.newContext()
        var fresh = try fetchGraph(reader)
        // Deleted tasks are gone: unlinked stand-ins keep the others at their indices.
        let byTitle = Dictionary(uniqueKeysWithValues: fresh.tasks.map { ($0.title, $0) })
        fresh.tasks = graph.tasks.indices.map { index in
            byTitle[String(format: "t%05d", index)] ?? { let t = GTask(context: reader); t.title = "deleted"; return t }()
        }
        check(fresh, model, "saved store (seed \(seed))")
    }

    /// One random operation on the graph, made on the model too.
    private func step(_ graph: Graph, _ model: inout Model, context: ManagedObjectContext, saved: inout Model?,
                      random: inout SeededGenerator) {
        let live = graph.tasks.indices.filter { !model.deleted.contains($0) }
        guard let task = live.randomElement(using: &random) else { return }
        let project = Int.random(in: 0..<graph.projects.count, using: &random)
        let tag = Int.random(in: 0..<graph.tags.count, using: &random)
        let plan = Int.random(in: 0..<graph.plans.count, using: &random)
        let stepIndex = Int.random(in: 0..<graph.steps.count, using: &random)
        switch Int.random(in: 0..<23, using: &random) {
        case 0: graph.tasks[task].project = graph.projects[project]; model.project[task] = project
        case 1: graph.tasks[task].project = nil; model.project[task] = nil
        case 2: graph.projects[project].tasks.insert(graph.tasks[task]); model.project[task] = project
        case 3:
            graph.projects[project].tasks.remove(graph.tasks[task])
            if model.project[task] == project { model.project[task] = nil }
        case 4, 5: graph.tags[tag].tasks.insert(graph.tasks[task]); model.tags[task, default: []].insert(tag)
        case 6: graph.tags[tag].tasks.remove(graph.tasks[task]); model.tags[task]?.remove(tag)
        case 7: graph.tasks[task].tags.insert(graph.tags[tag]); model.tags[task, default: []].insert(tag)
        case 8: graph.tasks[task].tags.remove(graph.tags[tag]); model.tags[task]?.remove(tag)
        case 9, 10:
            graph.plans[plan].steps.append(graph.steps[stepIndex])
            assignSteps(of: plan, model.steps(of: plan, graph) + [stepIndex], &model)
        case 11:
            var steps = model.steps(of: plan, graph)
            guard !steps.isEmpty else { return }
            let index = Int.random(in: 0..<steps.count, using: &random)
            graph.plans[plan].steps.remove(at: index)
            steps.remove(at: index)
            assignSteps(of: plan, steps, &model)
        case 12:
            graph.plans[plan].steps.insert(graph.steps[stepIndex], at: 0)
            assignSteps(of: plan, [stepIndex] + model.steps(of: plan, graph), &model)
        case 13:
            let target = Int.random(in: 0...graph.plans.count, using: &random)
            graph.steps[stepIndex].plan = target < graph.plans.count ? graph.plans[target] : nil
            setPlan(of: stepIndex, target < graph.plans.count ? target : nil, &model, graph)
        case 14:
            // Reads load lists, which later links then keep current.
            _ = graph.projects[project].tasks.count + graph.tags[tag].tasks.count + graph.plans[plan].steps.count
        case 17: graph.projects[project].$tasks.insert(graph.tasks[task]); model.project[task] = project
        case 18:
            graph.projects[project].$tasks.remove(graph.tasks[task])
            if model.project[task] == project { model.project[task] = nil }
        case 19: graph.tags[tag].$tasks.insert(graph.tasks[task]); model.tags[task, default: []].insert(tag)
        case 20: graph.tasks[task].$tags.remove(graph.tags[tag]); model.tags[task]?.remove(tag)
        case 21:
            graph.plans[plan].$steps.insert(graph.steps[stepIndex])
            if model.plan[stepIndex] != plan { setPlan(of: stepIndex, plan, &model, graph) }
        case 22:
            graph.plans[plan].$steps.remove(graph.steps[stepIndex])
            if model.plan[stepIndex] == plan { setPlan(of: stepIndex, nil, &model, graph) }
        case 15:
            if Int.random(in: 0..<3, using: &random) == 0 {
                XCTAssertNoThrow(try context.save())
                model.deleted.forEach { model.project[$0] = nil; model.tags[$0] = nil }
                saved = model
            } else if let snapshot = saved {
                context.rollback()
                model = snapshot
            }
        default:
            guard Int.random(in: 0..<4, using: &random) == 0 else { return }
            context.delete(graph.tasks[task])
            model.deleted.insert(task)
            model.project[task] = nil
            model.tags[task] = nil
        }
    }

    /// A step's to-one set: it goes after the target's steps (position: their count, or one
    /// past the last one's when a step left from the middle).
    private func setPlan(of step: Int, _ plan: Int?, _ model: inout Model, _ graph: Graph) {
        guard model.plan[step] != plan else { return }
        model.position[step] = plan.map { plan in
            let steps = model.steps(of: plan, graph)
            let count = Int64(steps.count)
            guard let last = steps.last, let position = model.position[last] else { return count }
            return max(count, position + 1)
        }
        model.plan[step] = plan
    }

    /// A plan's steps assigned: duplicates keep their first place, positions are 0, 1, 2...
    private func assignSteps(of plan: Int, _ steps: [Int], _ model: inout Model) {
        var unique: [Int] = []
        for step in steps where !unique.contains(step) { unique.append(step) }
        for (step, owner) in model.plan where owner == plan && !unique.contains(step) {
            model.plan[step] = nil
            model.position[step] = nil
        }
        for (position, step) in unique.enumerated() {
            model.plan[step] = plan
            model.position[step] = Int64(position)
        }
    }

    /// The graph's relationships, both sides, compared with the model's.
    private func check(_ graph: Graph, _ model: Model, _ what: String) {
        let live = graph.tasks.indices.filter { !model.deleted.contains($0) }
        for task in live {
            XCTAssertEqual(graph.tasks[task].project?.name, model.project[task].map { "p\($0)" }, "task \(task) project, \(what)")
            XCTAssertEqual(Set(graph.tasks[task].tags.map(\.label)), Set((model.tags[task] ?? []).map { "g\($0)" }),
                           "task \(task) tags, \(what)")
        }
        for (index, project) in graph.projects.enumerated() {
            XCTAssertEqual(Set(project.tasks.map(\.title)), Set(live.filter { model.project[$0] == index }.map { graph.tasks[$0].title }),
                           "\(project.name) tasks, \(what)")
        }
        for (index, tag) in graph.tags.enumerated() {
            XCTAssertEqual(Set(tag.tasks.map(\.title)), Set(live.filter { model.tags[$0]?.contains(index) == true }.map { graph.tasks[$0].title }),
                           "\(tag.label) tasks, \(what)")
        }
        for (index, plan) in graph.plans.enumerated() {
            XCTAssertEqual(plan.steps.map(\.text), model.steps(of: index, graph).map { graph.steps[$0].text }, "\(plan.title) steps, \(what)")
        }
        for (index, step) in graph.steps.enumerated() {
            XCTAssertEqual(step.plan?.title, model.plan[index].map { "l\($0)" }, "step \(index) plan, \(what)")
        }
    }
}
