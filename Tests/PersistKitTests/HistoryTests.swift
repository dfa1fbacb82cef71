import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Persistent history: one record per save with its objects and keys, tokens, purging and
/// retention, stores made before history, and other processes' saves merged exactly.
final class HistoryTests: XCTestCase {
    private var directory = TemporaryDirectory()

    override func setUp() { directory = TemporaryDirectory() }

    private func model() throws -> ManagedObjectModel { try ManagedObjectModel(entities: [TestTask.self]) }

    private func container(_ name: String = "store.sqlite", retention: HistoryRetention = .default,
                           readOnly: Bool = false) throws -> PersistentContainer {
        var description = StoreDescription.sqlite(directory.file(name), readOnly: readOnly)
        description.historyRetention = retention
        return try PersistentContainer(model: model(), store: description)
    }

    @discardableResult
    private func insert(_ names: [String], into context: ManagedObjectContext) throws -> [TestTask] {
        let tasks = names.map { name in
            let task = TestTask(context: context)
            task.name = name
            return task
        }
        try context.save()
        return tasks
    }

    private func summary(_ transaction: HistoryTransaction) -> [String] {
        transaction.changes.map { change in
            "\(change.kind.rawValue) \(change.objectID.entityName) \(change.objectID.primaryKey ?? -1)"
                + (change.changedKeys.isEmpty ? "" : " " + change.changedKeys.joined(separator: ","))
        }
    }

    // MARK: Records

    func testEverySaveRecordsItsAuthorContextAndChanges() throws {
        for kind in StoreKind.allCases {
            let container = try makeContainer(kind, in: directory, entities: [TestTask.self])
            let context = container.newContext()
            context.name = "editor"
            context.transactionAuthor = "alice"
            let before = Date()
            let tasks = try insert(["a", "b", "c"], into: context)
            tasks[0].due = day(1)
            tasks[0].notes = "n"
            tasks[1].isComplete = true
            context.delete(tasks[2])
            try context.save()
            context.transactionAuthor = nil
            tasks[1].priority = .high
            try context.save()

            let history = try container.history(after: nil)
            XCTAssertEqual(history.count, 3, "\(kind)")
            XCTAssertEqual(history.map(\.author), ["alice", "alice", nil])
            XCTAssertEqual(history.map(\.contextName), ["editor", "editor", "editor"])
            XCTAssertTrue(history.allSatisfy { $0.timestamp >= before.addingTimeInterval(-1) && $0.timestamp <= Date().addingTimeInterval(1) })
            XCTAssertEqual(history.map(\.token.transactionNumber), [1, 2, 3])
            XCTAssertEqual(summary(history[0]), ["insert Task 1", "insert Task 2", "insert Task 3"])
            XCTAssertEqual(summary(history[1]), ["update Task 1 notes,due", "update Task 2 isComplete", "delete Task 3"])
            XCTAssertEqual(summary(history[2]), ["update Task 2 priority"])
            XCTAssertEqual(history[1].changes[0].objectID, tasks[0].objectID)
        }
    }

    func testASaveWithNothingToWriteRecordsNothing() throws {
        let container = try self.container()
        let context = container.newContext()
        let task = try insert(["a"], into: context)[0]
        task.name = "b"
        task.name = "a"
        try context.save()
        try context.save()
        XCTAssertEqual(try container.history(after: nil).count, 1)
    }

    func testARolledBackSaveLeavesNoRecordAndItsNumberIsReused() throws {
        let container = try self.container()
        let context = container.newContext()
        context.mergePolicy = .error
        let mine = try insert(["a"], into: context)[0]
        let other = container.newContext()
        let theirs = try XCTUnwrap(other.fetch(FetchRequest<TestTask>()).first)
        theirs.name = "theirs"
        try other.save()
        mine.name = "mine"
        expectError(try context.save(), .conflict)
        XCTAssertEqual(try container.history(after: nil).map(\.token.transactionNumber), [1, 2])
        context.rollback()
        context.refresh(mine, mergeChanges: false)
        mine.name = "again"
        try context.save()
        XCTAssertEqual(try container.history(after: nil).map(\.token.transactionNumber), [1, 2, 3])
    }

    func testRelationshipChangesAreRecordedUnderTheRelationshipsName() throws {
        let container = try makeGraphContainer(directory)
        let context = container.newContext()
        let project = GProject(context: context)
        project.name = "p"
        let task = GTask(context: context)
        task.title = "t"
        let tag = GTag(context: context)
        tag.label = "x"
        try context.save()
        let token = try XCTUnwrap(container.currentHistoryToken())

        task.project = project
        task.tags = [tag]
        try context.save()
        let changes = try XCTUnwrap(container.history(after: token).first).changes
        let byEntity = Dictionary(grouping: changes, by: \.objectID.entityName)
        XCTAssertEqual(byEntity["GTask"]?.map(\.kind), [.update])
        XCTAssertTrue(byEntity["GTask"]?.first?.changedKeys.contains("project") ?? false, "\(changes)")
        // Both sides of the join table report their list: the tag's tasks and the task's tags
        // changed, though only the tag owns the table.
        XCTAssertEqual(byEntity["GTask"]?.first?.changedKeys, ["project", "tags"], "\(changes)")
        XCTAssertEqual(byEntity["GTag"]?.first?.changedKeys, ["tasks"], "\(changes)")
        // So does the project the task joined: its tasks changed, though only the task's row did.
        XCTAssertEqual(byEntity["GProject"]?.first?.changedKeys, ["tasks"], "\(changes)")
        XCTAssertEqual(Set(changes.map(\.objectID)).count, changes.count, "one change per object: \(changes)")
    }

    // MARK: Tokens

    func testTokensAreCodableOrderedAndContinueTheHistory() throws {
        let container = try self.container()
        let context = container.newContext()
        XCTAssertNil(try container.currentHistoryToken())
        try insert(["a"], into: context)
        let first = try XCTUnwrap(container.currentHistoryToken())
        try insert(["b"], into: context)
        try insert(["c"], into: context)
        let last = try XCTUnwrap(container.currentHistoryToken())
        XCTAssertLessThan(first, last)
        XCTAssertEqual(first.storeIdentifier, container.storeIdentifier)

        let data = try JSONEncoder().encode([first, last])
        let decoded = try JSONDecoder().decode([HistoryToken].self, from: data)
        XCTAssertEqual(decoded, [first, last])
        XCTAssertEqual(Set(decoded).count, 2)

        let after = try container.history(after: decoded[0])
        XCTAssertEqual(after.map { summary($0) }, [["insert Task 2"], ["insert Task 3"]])
        XCTAssertEqual(after.last?.token, last)
        XCTAssertEqual(try container.history(after: last), [])

        let stranger = try self.container("other.sqlite")
        expectError(try stranger.history(after: first), .misuse)
        expectError(try stranger.purgeHistory(before: first), .misuse)
    }

    // MARK: Purging and retention

    func testPurgeBeforeATokenOrADate() throws {
        let container = try self.container(retention: .unlimited)
        let context = container.newContext()
        for name in ["a", "b", "c", "d"] { try insert([name], into: context) }
        let history = try container.history(after: nil)
        let second = history[1].token, third = history[2].token

        XCTAssertEqual(try container.purgeHistory(before: third), 2)
        XCTAssertEqual(try container.history(after: nil).map(\.token), [third, history[3].token])
        XCTAssertEqual(try container.history(after: second).map(\.token), [third, history[3].token], "nothing after it was purged")
        XCTAssertEqual(try container.history(after: third).map(\.token), [history[3].token])
        expectError(try container.history(after: history[0].token), .historyExpired) { error in
            XCTAssertEqual(error.reason, .historyExpired(file: self.directory.file("store.sqlite").path))
        }

        XCTAssertEqual(try container.purgeHistory(before: Date().addingTimeInterval(60)), 2)
        XCTAssertEqual(try container.history(after: nil), [])
        XCTAssertEqual(try container.history(after: history[3].token), [], "the newest token still continues")
        expectError(try container.history(after: second), .historyExpired)
        try insert(["e"], into: context)
        XCTAssertEqual(try container.history(after: history[3].token).map(\.token.transactionNumber), [5], "numbers are never reused")
    }

    func testSavesKeepAtMostTheRetainedNumberOfTransactions() throws {
        let container = try self.container(retention: HistoryRetention(maximumAge: nil, maximumTransactions: 3))
        let context = container.newContext()
        for name in 0..<10 { try insert(["t\(name)"], into: context) }
        XCTAssertEqual(try container.history(after: nil).map(\.token.transactionNumber), [8, 9, 10])
    }

    func testSavesRemoveRecordsOlderThanTheRetainedAge() throws {
        let container = try self.container(retention: HistoryRetention(maximumAge: 86_400, maximumTransactions: nil))
        let context = container.newContext()
        for name in 0..<4 { try insert(["t\(name)"], into: context) }
        // Records 1 and 2 were saved two days ago.
        try container.store.withConnection { connection in
            try connection.execute("UPDATE \(StoreHistory.table) SET timestamp = timestamp - 172800 WHERE id <= 2")
        }
        XCTAssertEqual(try container.history(after: nil).count, 4)
        try insert(["t4"], into: context)
        XCTAssertEqual(try container.history(after: nil).map(\.token.transactionNumber), [3, 4, 5])
    }

    func testAReadOnlyStoreReadsHistoryButCannotPurgeIt() throws {
        let writer = try self.container()
        try insert(["a"], into: writer.newContext())
        let reader = try self.container(readOnly: true)
        XCTAssertEqual(try reader.history(after: nil).count, 1)
        expectError(try reader.purgeHistory(before: Date()), .cannotOpenStore)
    }

    // MARK: Stores made before history

    /// Turns a store into one an older PersistKit made: no history table, no sequence.
    private func removeHistory(at url: URL) throws {
        let connection = try SQLiteConnection(path: url.path, configuration: .init())
        try connection.execute("DROP TABLE \(StoreHistory.table); DELETE FROM sqlite_sequence")
    }

    func testAStoreWithoutHistoryOpensWorksAndGainsHistoryAtItsFirstSave() throws {
        let url = directory.file("store.sqlite")
        do {
            try insert(["old"], into: try container().newContext())
        }
        try removeHistory(at: url)

        let container = try self.container()
        let context = container.newContext()
        XCTAssertEqual(try context.fetch(FetchRequest<TestTask>()).map(\.name), ["old"])
        XCTAssertEqual(try container.history(after: nil), [])
        XCTAssertNil(try container.currentHistoryToken())

        let readOnly = try self.container(readOnly: true)
        XCTAssertEqual(try readOnly.history(after: nil), [], "read-only, and never had history")
        XCTAssertEqual(try readOnly.newContext().fetch(FetchRequest<TestTask>()).count, 1)

        try insert(["new"], into: context)
        XCTAssertEqual(try container.history(after: nil).map { summary($0) }, [["insert Task 2"]])
        XCTAssertEqual(try readOnly.history(after: nil).count, 1)
        // It still opens, as any store does, in a new container.
        XCTAssertEqual(try self.container().history(after: nil).count, 1)
    }

    func testAReaderOfAStoreWithoutHistoryRefreshesEverythingThenMergesExactly() throws {
        let url = directory.file("store.sqlite")
        try insert(["a", "b"], into: try container().newContext())
        try removeHistory(at: url)
        let mine = try container(), theirs = try container()
        let context = mine.newContext()
        var notices: [ContextChanges] = []
        let token = context.addObserver { notices.append($0) }
        defer { token.cancel() }
        let tasks = try context.fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.name)]))
        let other = theirs.newContext()

        // The first save adds the history table: this reader learns only that something changed.
        try XCTUnwrap(other.fetch(FetchRequest<TestTask>(predicate: \.name == "a")).first).notes = "1"
        try other.save()
        context.processPendingChanges()
        XCTAssertEqual(notices.map(\.invalidatedAll), [true])
        XCTAssertEqual(tasks[0].notes, "1")

        // From then on, exactly.
        try XCTUnwrap(other.fetch(FetchRequest<TestTask>(predicate: \.name == "b")).first).notes = "2"
        try other.save()
        context.processPendingChanges()
        XCTAssertEqual(notices.count, 2)
        XCTAssertEqual(notices.last?.invalidatedAll, false)
        XCTAssertEqual(notices.last?.updated.map(\.object), [tasks[1]])
        XCTAssertEqual(tasks[1].notes, "2")
    }

    // MARK: Other processes

    func testAnotherContainersSavesAreMergedAsExactChanges() throws {
        let mine = try container(), theirs = try container()
        let context = mine.newContext()
        try insert(["a", "b", "c"], into: context)
        let controller = FetchedResultsController(fetchRequest: tasksRequest(), context: context)
        let harness = try ControllerHarness(controller)
        var notices: [ContextChanges] = []
        let token = context.addObserver { notices.append($0) }
        defer { token.cancel() }

        let other = theirs.newContext()
        let their = try other.fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.name)]))
        their[1].due = day(3)
        try other.save()
        context.processPendingChanges()
        XCTAssertEqual(notices.count, 1)
        XCTAssertFalse(notices[0].invalidatedAll, "read from the history, not refreshed wholesale")
        XCTAssertEqual(notices[0].updated.map { $0.object.objectID }, [their[1].objectID])
        XCTAssertEqual(notices[0].updated.first?.keys.names, ["due"])
        XCTAssertEqual(harness.controller.updateCounts.refetch, 0, "the controller placed one row, without refetching")
        XCTAssertEqual(harness.changes.count, 1)

        other.delete(their[0])
        let added = TestTask(context: other)
        added.name = "d"
        try other.save()
        context.processPendingChanges()
        XCTAssertEqual(notices.count, 2)
        XCTAssertFalse(notices[1].invalidatedAll)
        XCTAssertEqual(notices[1].deleted.map(\.objectID), [their[0].objectID])
        XCTAssertEqual(notices[1].inserted.map(\.objectID), [added.objectID])
        XCTAssertEqual(harness.controller.updateCounts.refetch, 0)
        XCTAssertEqual(harness.mirror, harness.current)
        XCTAssertEqual(harness.controller.fetchedObjects.map(\.objectID), try context.fetch(tasksRequest()).map(\.objectID))
        XCTAssertEqual(harness.problems, [])

        // Its own saves are not merged again; nothing new means no notice.
        notices.removeAll()
        context.processPendingChanges()
        try insert(["e"], into: context)
        context.processPendingChanges()
        XCTAssertTrue(notices.allSatisfy { !$0.invalidatedAll }, "\(notices)")
    }

    /// Merging object by object reads every inserted object; when another process's changes
    /// name at least 1,000 objects and a third of those this context holds, re-reading what
    /// it holds (controllers then refetch) is cheaper, and is done instead.
    func testLargeChangesOfAnotherProcessAreTakenInByRefreshingEverything() throws {
        let mine = try container(), theirs = try container()
        let context = mine.newContext()
        let tasks = try insert((0..<4_000).map { "t\($0)" }, into: context)
        var notices: [ContextChanges] = []
        let token = context.addObserver { notices.append($0) }
        defer { token.cancel() }
        let other = theirs.newContext()
        let their = try other.fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.name)]))

        for task in their.prefix(1_100) { task.notes = "a" }   // 1,100 of 4,000 held: exactly
        try other.save()
        context.processPendingChanges()
        XCTAssertEqual(notices.map(\.invalidatedAll), [false])
        XCTAssertEqual(notices.last?.updated.count, 1_100)

        for task in their.prefix(1_400) { task.notes = "b" }   // 1,400: over a third
        try other.save()
        context.processPendingChanges()
        XCTAssertEqual(notices.map(\.invalidatedAll), [false, true])
        XCTAssertEqual(tasks.filter { $0.notes == "b" }.count, 1_400)
    }

    func testACommitWithoutARecordOrAPurgedHistoryFallsBackToRefreshingEverything() throws {
        let url = directory.file("store.sqlite")
        let mine = try container(), theirs = try container()
        let context = mine.newContext()
        let tasks = try insert(["a", "b"], into: context)
        var notices: [ContextChanges] = []
        let token = context.addObserver { notices.append($0) }
        defer { token.cancel() }

        // Another program writes without PersistKit (so without a record).
        let foreign = try SQLiteConnection(path: url.path, configuration: .init())
        try foreign.execute("UPDATE Task SET notes = 'foreign', _version = _version + 1 WHERE _pk = 1")
        context.processPendingChanges()
        XCTAssertEqual(notices.map(\.invalidatedAll), [true])
        XCTAssertEqual(tasks[0].notes, "foreign")

        // Another container saves, then purges that history before this one read it.
        let other = theirs.newContext()
        try XCTUnwrap(other.fetch(FetchRequest<TestTask>(predicate: \.name == "b")).first).notes = "purged"
        try other.save()
        try theirs.purgeHistory(before: Date().addingTimeInterval(60))
        context.processPendingChanges()
        XCTAssertEqual(notices.map(\.invalidatedAll), [true, true])
        XCTAssertEqual(tasks[1].notes, "purged")

        // And then exactly again.
        try XCTUnwrap(other.fetch(FetchRequest<TestTask>(predicate: \.name == "a")).first).notes = "exact"
        try other.save()
        context.processPendingChanges()
        XCTAssertEqual(notices.map(\.invalidatedAll), [true, true, false])
        XCTAssertEqual(tasks[0].notes, "exact")
    }

    /// A large transaction spills to the WAL before it commits, restarting the WAL: other
    /// connections' `PRAGMA data_version` moves then, with no record to read yet. That is not
    /// a commit without a record: the reader waits for the commit, then merges it exactly.
    func testAWriterRestartingTheWALBeforeItsCommitIsNotMistakenForAnUnrecordedCommit() throws {
        let url = directory.file("store.sqlite")
        let mine = try container()
        let context = mine.newContext()
        try insert(["a"], into: context)
        var notices: [ContextChanges] = []
        let token = context.addObserver { notices.append($0) }
        defer { token.cancel() }

        let writer = try SQLiteConnection(path: url.path, configuration: .init())
        try writer.execute("PRAGMA cache_size = 10")
        _ = try writer.singleInt("PRAGMA wal_checkpoint(PASSIVE)")
        context.processPendingChanges()
        let version = try mine.store.withConnection { try $0.singleInt("PRAGMA data_version") }

        // As a save of another PersistKit does it: its record, then (spilling) its rows.
        try writer.execute("BEGIN IMMEDIATE")
        let changes = StoreHistoryChanges(inserted: ["Task": Array(2...401)])
        try writer.execute("INSERT INTO \(StoreHistory.table) (timestamp, changes) VALUES (0, '\(changes.encoded())')")
        let notes = String(repeating: "x", count: 1_000)
        for key in 2...401 {
            try writer.execute("INSERT INTO Task (_pk, name, notes, isComplete, priority, count) VALUES (\(key), 't\(key)', '\(notes)', 0, 1, 0)")
        }
        let moved = try mine.store.withConnection { try $0.singleInt("PRAGMA data_version") }
        XCTAssertNotEqual(moved, version, "the premise: the spill restarted the WAL, so the data version moved before the commit")
        context.processPendingChanges()
        XCTAssertEqual(notices.count, 0, "nothing committed yet: \(notices.map(\.invalidatedAll))")

        try writer.execute("COMMIT")
        context.processPendingChanges()
        XCTAssertEqual(notices.map(\.invalidatedAll), [false])
        XCTAssertEqual(try context.fetch(FetchRequest<TestTask>()).count, 401)
    }

    func testRecordsRoundTripThroughTheirStoredForm() throws {
        let seed = testSeed("HistoryTests.testRecordsRoundTripThroughTheirStoredForm")
        var rng = SeededGenerator(seed: seed)
        func keys() -> [Int64] {
            var keys = Set<Int64>()
            for _ in 0..<Int.random(in: 1...40, using: &rng) {
                let start = Int64.random(in: 1...1_000, using: &rng)
                for key in start..<(start + Int64.random(in: 1...5, using: &rng)) { keys.insert(key) }
            }
            return keys.sorted()
        }
        let names = ["Task", "é \"quoted\" \\ back", "tab\tnew\nline\u{1}", "日本"]
        for _ in 0..<200 {
            var changes = StoreHistoryChanges()
            for name in names.shuffled(using: &rng).prefix(Int.random(in: 0...3, using: &rng)) {
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: changes.inserted[name] = keys()
                case 1: changes.deleted[name] = keys()
                default:
                    changes.updated[name] = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
                        StoreHistoryChanges.UpdateGroup(keyNames: Array(names.shuffled(using: &rng).prefix(2)), objects: keys())
                    }
                }
            }
            let text = changes.encoded()
            XCTAssertEqual(try StoreHistoryChanges.decode(text, record: 1), changes, "seed \(seed): \(text)")
        }
    }

    /// Runs are written a chunk at a time: long lists (crossing chunks) and extreme keys give
    /// the same text as formatting each compressed value.
    func testRunsTextMatchesDecimalFormattingAcrossChunks() throws {
        let seed = testSeed("HistoryTests.testRunsTextMatchesDecimalFormattingAcrossChunks")
        var rng = SeededGenerator(seed: seed)
        for round in 0..<40 {
            var keys = Set<Int64>([1, 9, 10, 99, 100, Int64.max, Int64.max - 1])
            let magnitude = Int64(1) << Int64.random(in: 1...62, using: &rng)
            for _ in 0..<Int.random(in: 0...3_000, using: &rng) {
                let start = Int64.random(in: 1...magnitude, using: &rng)
                for key in start..<(start + Int64.random(in: 1...3, using: &rng)) where key > 0 { keys.insert(key) }
            }
            let sorted = keys.sorted()
            var json = JSONBytes()
            json.appendRuns(sorted)
            let expected = "[" + KeyRuns.compress(sorted).map(String.init).joined(separator: ",") + "]"
            XCTAssertEqual(String(decoding: json.bytes, as: UTF8.self), expected, "seed \(seed), round \(round)")
        }
        var json = JSONBytes()
        for value: Int64 in [0, -1, 7, -10, Int64.min, Int64.max] {
            json.appendInteger(value)
            json.append(" ")
        }
        XCTAssertEqual(String(decoding: json.bytes, as: UTF8.self), "0 -1 7 -10 -9223372036854775808 9223372036854775807 ")
    }

    func testKeyRunsRoundTripAndRejectMalformedRuns() throws {
        XCTAssertEqual(KeyRuns.compress([1, 2, 3, 4, 9, 11, 12]), [1, -3, 9, 11, -1])
        XCTAssertEqual(KeyRuns.expand([1, -3, 9, 11, -1]), [1, 2, 3, 4, 9, 11, 12])
        XCTAssertEqual(KeyRuns.compress([]), [])
        XCTAssertEqual(StoreHistoryChanges(inserted: ["Task": [1, 2, 3, 5]], deleted: ["Task": [-9_223_372_036_854_775_807, 9]]).encoded(),
                       #"{"i":{"Task":[1,-2,5]},"d":{"Task":[-9223372036854775807,9]}}"#)
        for malformed: [Int64] in [[-1], [1, -1, -1], [0], [1, 0], [Int64.max - 1, -5], [1, -(KeyRuns.maximumRun + 1)]] {
            XCTAssertNil(KeyRuns.expand(malformed), "\(malformed)")
        }
        expectError(try StoreHistoryChanges.decode("{\"i\":{\"Task\":[-4]}}", record: 7), .notADatabase)
        expectError(try StoreHistoryChanges.decode("not json", record: 7), .notADatabase)
    }
}
