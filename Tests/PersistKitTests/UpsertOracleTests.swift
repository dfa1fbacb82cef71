import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Generated upserts against a model of what they mean: random inserts of tags from a few
/// labels (with tasks), links, renames, changes and deletions of stored tags, saves and
/// rollbacks, in contexts that hold the stored tags or not. After every save, a fresh
/// context's view, and the saving context's, equal the model's.
final class UpsertOracleTests: XCTestCase {
    /// A tag as the model sees it: its uses and the titles of its tasks.
    private struct Row: Equatable, CustomStringConvertible {
        var uses: Int
        var tasks: Set<String>
        var description: String { "\(uses) \(tasks.sorted())" }
    }

    /// The unsaved changes, in the order the save applies them to the rows.
    private struct Batch {
        var links: [(label: String, task: String)] = []
        var uses: [String: Int] = [:]
        var renames: [(from: String, to: String)] = []
        var deletes: [String] = []
        var inserts: [(label: String, uses: Int, tasks: Set<String>)] = []
        var touched = Set<String>()   // stored labels renamed or deleted: not picked again

        func applied(to rows: [String: Row]) -> [String: Row] {
            var rows = rows
            for (label, task) in links { rows[label]?.tasks.insert(task) }
            for (label, uses) in uses { rows[label]?.uses = uses }
            for (from, to) in renames { rows[to] = rows.removeValue(forKey: from) }
            for label in deletes { rows[label] = nil }
            for (label, uses, tasks) in inserts {
                // The later insert's values win; every insert's tasks and the row's are kept.
                rows[label] = Row(uses: uses, tasks: (rows[label]?.tasks ?? []).union(tasks))
            }
            return rows
        }
    }

    func testRandomUpsertsMatchTheModel() throws {
        let name = "UpsertOracleTests"
        let seed = testSeed(name)
        var random = SeededGenerator(seed: seed)
        let steps = testSize(name, full: 800, ci: 200)
        let directory = TemporaryDirectory()
        let container = try makeUpsertContainer(directory)
        let labels = ["a", "b", "c", "d", "e"]
        var rows: [String: Row] = [:]
        var batch = Batch()
        var context = container.newContext()
        context.mergePolicy = .objectTrump
        var held: [UPTag] = []
        var counter = 0

        /// A stored tag of this context (read now if not held), not renamed or deleted here.
        func storedTag() throws -> UPTag? {
            let choices = rows.keys.sorted().filter { !batch.touched.contains($0) }
            guard !choices.isEmpty else { return nil }
            let label = choices[Int.random(in: 0..<choices.count, using: &random)]
            let tag = try context.fetch(FetchRequest<UPTag>(predicate: \.label == label)).first { !$0.isInserted }
            if let tag { held.append(tag) }
            return tag
        }

        for step in 0..<steps {
            counter += 1
            switch Int.random(in: 0..<20, using: &random) {
            case 0..<8:
                let tag = UPTag(context: context)
                tag.label = labels[Int.random(in: 0..<labels.count, using: &random)]
                tag.uses = Int.random(in: 0..<1_000, using: &random)
                var tasks = Set<String>()
                if Bool.random(using: &random) {
                    let task = UPTask(context: context)
                    task.title = "t\(counter)"
                    task.tags = [tag]
                    tasks.insert(task.title)
                }
                batch.inserts.append((tag.label, tag.uses, tasks))
            case 8..<10:
                guard let tag = try storedTag() else { continue }
                let task = UPTask(context: context)
                task.title = "t\(counter)"
                tag.tasks.insert(task)
                batch.links.append((tag.label, task.title))
            case 10:
                guard let tag = try storedTag() else { continue }
                tag.uses = Int.random(in: 0..<1_000, using: &random)
                batch.uses[tag.label] = tag.uses
            case 11:
                guard let tag = try storedTag() else { continue }
                let old = tag.label
                tag.label = "r\(counter)"
                batch.renames.append((old, tag.label))
                batch.touched.formUnion([old, tag.label])
            case 12:
                guard let tag = try storedTag() else { continue }
                context.delete(tag)
                batch.deletes.append(tag.label)
                batch.touched.insert(tag.label)
            case 13:
                context.rollback()
                batch = Batch()
            case 14:
                if !context.hasChanges {
                    // A new context holds nothing: upserts take the insert as the row's object.
                    held.removeAll()
                    context = container.newContext()
                    context.mergePolicy = .objectTrump
                }
            default:
                try context.save()
                rows = batch.applied(to: rows)
                batch = Batch()
                try check(container, context, rows, "\(name) seed \(seed) step \(step)")
            }
        }
        try context.save()
        try check(container, context, batch.applied(to: rows), "\(name) seed \(seed) end")
    }

    /// The store (through a fresh context) and the saving context both show `rows`, one object per label.
    private func check(_ container: PersistentContainer, _ context: ManagedObjectContext, _ rows: [String: Row],
                       _ label: String) throws {
        for (place, viewing) in [("fresh", container.newContext()), ("saving", context)] {
            let tags = try viewing.fetch(FetchRequest<UPTag>())
            var seen: [String: Row] = [:]
            for tag in tags {
                XCTAssertNil(seen[tag.label], "\(label) [\(place)]: two tags \(tag.label)")
                seen[tag.label] = Row(uses: tag.uses, tasks: Set(tag.tasks.map(\.title)))
                for task in tag.tasks {
                    XCTAssertTrue(task.tags.contains(tag), "\(label) [\(place)]: \(task.title).tags misses \(tag.label)")
                }
            }
            XCTAssertEqual(seen, rows, "\(label) [\(place)]")
        }
    }
}
