import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A JSON-stored sequence, so that sequence expressions on an attribute can be written.
struct Scores: Codable, Sequence, AttributeValue {
    var values: [Int]
    func makeIterator() -> IndexingIterator<[Int]> { values.makeIterator() }
}

/// An entity with a sequence attribute, for constructs PersistKit cannot translate.
final class Scored: ManagedObject {
    @Attribute var name = ""
    @Attribute var scores = Scores(values: [])
}

/// Foundation `#Predicate` and `FetchSortDescriptor` in fetch requests: the same objects as the
/// equivalent format strings, saved or pending, and clear errors for what cannot be translated.
final class FoundationPredicateTests: XCTestCase {
    private typealias Pair = (foundation: Foundation.Predicate<TestTask>, format: String, arguments: [Any])

    private func seed(_ context: ManagedObjectContext) throws -> [TestTask] {
        let names = ["Buy milk", "buy bread", "Call mom", "milk the cow", "Bake", "call plumber", "Zebra", "oat milk"]
        let tasks = names.enumerated().map { n, name -> TestTask in
            let task = TestTask(context: context)
            task.name = name
            task.notes = n % 3 == 0 ? nil : (n % 2 == 0 ? "call first" : "")
            task.due = n % 4 == 1 ? nil : day(n)
            task.isComplete = n % 3 == 1
            task.priority = Priority(rawValue: n % 3) ?? .normal
            task.estimate = n % 5 == 0 ? nil : Double(n) * 1.5
            task.count = n
            return task
        }
        try context.save()
        return tasks
    }

    private func pairs() -> [Pair] {
        let deadline = day(4)
        let deadlineSince1970 = day(3).timeIntervalSince1970
        let high = Priority.high
        let wanted = [1, 2, 6]
        let limit = 5
        let soon = day(2)...day(5)
        return [
            (#Predicate { $0.isComplete == false && $0.name.contains("milk") }, "isComplete == NO AND name CONTAINS 'milk'", []),
            (#Predicate { $0.due == nil }, "due == nil", []),
            (#Predicate { $0.due != nil }, "due != nil", []),
            (#Predicate { $0.due != nil && $0.due! < deadline }, "due < %@", [deadline]),
            (#Predicate { $0.due.flatMap { $0 < deadline } ?? false }, "due < %@", [deadline]),
            (#Predicate { ($0.notes ?? "") == "" }, "notes == nil OR notes == ''", []),
            (#Predicate { $0.notes?.starts(with: "call") == true }, "notes BEGINSWITH 'call'", []),
            (#Predicate { wanted.contains($0.count) }, "count IN %@", [wanted]),
            (#Predicate { $0.priority == high }, "priority == %@", [Priority.high]),
            (#Predicate { $0.priority.rawValue >= 1 }, "priority >= 1", []),
            (#Predicate { $0.count + 1 > limit }, "count > 4", []),
            (#Predicate { 10 - $0.count * 2 >= -3 || !$0.isComplete }, "count <= 6 OR isComplete == NO", []),
            (#Predicate { -$0.count < -3 }, "count > 3", []),
            (#Predicate { limit <= $0.count && 7 != $0.count }, "%d <= count AND 7 != count", [limit]),
            (#Predicate { (2...4).contains($0.count) }, "count BETWEEN {2, 4}", []),
            (#Predicate { soon.contains($0.due ?? deadline) }, "(due == nil) OR (due >= %@ AND due <= %@)", [day(2), day(5)]),
            (#Predicate { ($0.estimate ?? 0) / 2 > 3 }, "estimate > 6", []),
            (#Predicate { $0.isComplete ? $0.count > 3 : $0.name.starts(with: "B") },
             "(isComplete == YES AND count > 3) OR (isComplete == NO AND name BEGINSWITH 'B')", []),
            (#Predicate { $0.due!.timeIntervalSince1970 >= deadlineSince1970 }, "due >= %@", [day(3)]),
            (#Predicate { $0.due!.timeIntervalSinceReferenceDate + 86_400 < deadline.timeIntervalSinceReferenceDate },
             "due < %@", [day(3)]),
            (#Predicate { !($0.name == "Buy milk") }, "NOT name == 'Buy milk'", []),
            (#Predicate { $0.notes?.isEmpty ?? true }, "notes == nil OR notes == ''", []),
            (#Predicate { !$0.name.isEmpty && $0.notes!.isEmpty }, "name != '' AND notes == ''", []),
            (#Predicate { $0.count > $0.priority.rawValue }, "count > priority", []),
            (#Predicate { $0.count * 2 - $0.priority.rawValue >= $0.count + 3 }, "count * 2 - priority >= count + 3", []),
            (#Predicate { ($0.estimate ?? 0) > 7 - ($0.estimate ?? 1) }, "(estimate == nil AND 0 > 7 - 1) OR (estimate != nil AND estimate > 7 - estimate)", []),
            (#Predicate { $0.name.contains($0.notes ?? "~") }, "(notes == nil AND name CONTAINS '~') OR (notes != nil AND name CONTAINS notes)", []),
            (#Predicate { _ in true }, "TRUEPREDICATE", []),
        ]
    }

    private func assertSameObjects(_ context: ManagedObjectContext, _ pair: Pair, _ label: String,
                                   file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let sort = [FetchSortDescriptor<TestTask>(\.count)]
        let format = try FetchPredicate<TestTask>(format: pair.format, argumentArray: pair.arguments)
        let expected = try context.fetch(FetchRequest(predicate: format, sortBy: sort)).map(\.name)
        let actual = try context.fetch(FetchRequest(predicate: pair.foundation, sortBy: sort)).map(\.name)
        XCTAssertEqual(actual, expected, "\(label): \(pair.foundation) vs \(pair.format)", file: file, line: line)
        XCTAssertEqual(try context.count(for: FetchRequest(predicate: pair.foundation)), expected.count, label, file: file, line: line)
        return expected.count
    }

    func testPredicateMacroFetchesWhatTheFormatStringFetches() {
        forEachStore { container, kind in
            let context = container.newContext()
            let tasks = try seed(context)
            var proper = 0
            for pair in pairs() {
                let count = try assertSameObjects(context, pair, "[\(kind)] saved")
                if count > 0 && count < tasks.count { proper += 1 }
            }
            XCTAssertGreaterThan(proper, 15, "too few predicates selected a proper subset")
            // Pending changes: an insert, updates that change what matches, a deletion.
            let inserted = TestTask(context: context)
            inserted.name = "pending milk"
            inserted.count = 3
            tasks[0].isComplete = true
            tasks[1].due = day(1)
            tasks[2].notes = nil
            tasks[5].count = 12
            context.delete(tasks[6])
            for pair in pairs() { _ = try assertSameObjects(context, pair, "[\(kind)] pending") }
        }
    }

    func testSetPredicateAndPersistKitPredicateConversion() throws {
        let directory = TemporaryDirectory()
        let context = try makeContainer(.sqlite, in: directory).newContext()
        _ = try seed(context)
        var request = FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.count)])
        request.setPredicate(#Predicate { $0.name.starts(with: "call") })
        XCTAssertEqual(try context.fetch(request).map(\.name), ["call plumber"])
        request.predicate = FetchPredicate(#Predicate<TestTask> { $0.count >= 6 })
        XCTAssertEqual(try context.fetch(request).map(\.count), [6, 7])
        let predicate = FetchPredicate(#Predicate<TestTask> { $0.notes == "" })
        let matching = try context.fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.count)])).filter { try predicate.evaluate(with: $0) }
        XCTAssertEqual(matching.map(\.count), [1, 5, 7])
    }

    func testIntegerArithmeticIsExactAtTheLimits() {
        forEachStore { container, _ in
            let context = container.newContext()
            for (n, value) in [Int16.min, -1, 0, 1, Int16.max - 1, Int16.max].enumerated() {
                let object = Everything(context: context)
                object.int16 = value
                object.int = n == 0 ? Int.min : (n == 5 ? Int.max : n)
            }
            try context.save()
            let top: Int16 = .max, bottom = Int.min
            let sort = [FetchSortDescriptor<Everything>(\.int16)]
            // Swift would trap on these overflows; the translation compares the exact results.
            let above = try context.fetch(FetchRequest(predicate: #Predicate<Everything> { $0.int16 + 1 > top }, sortBy: sort))
            XCTAssertEqual(above.map(\.int16), [Int16.max])
            let doubled = try context.fetch(FetchRequest(predicate: #Predicate<Everything> { $0.int * 2 < bottom }, sortBy: sort))
            XCTAssertEqual(doubled.map(\.int), [Int.min])
            let negated = try context.fetch(FetchRequest(predicate: #Predicate<Everything> { -$0.int16 > top }, sortBy: sort))
            XCTAssertEqual(negated.map(\.int16), [Int16.min])
            let halves = try context.fetch(FetchRequest(predicate: #Predicate<Everything> { $0.int16 / 2 == 0 }, sortBy: sort))
            XCTAssertEqual(halves.map(\.int16), [-1, 0, 1])
        }
    }

    /// Float arithmetic is Float arithmetic (rounded as Swift rounds it), Int32 and Int16 keep
    /// their own ranges: the fetch selects what Foundation's own evaluation selects.
    func testFloatAndNarrowIntegerArithmeticMatchFoundation() {
        let floats: [Float] = [-3.4e38, -1.5, -0.0, 0, 0.1, 1.0 / 3, 0.3, 1, 3.4e38, .infinity, -.infinity, .leastNonzeroMagnitude]
        let third: Float = 1.0 / 3, tenth: Float = 0.1, big: Float = 1e38, small: Int32 = -20
        let predicates: [Foundation.Predicate<Everything>] = [
            #Predicate { $0.float * 3 > 1 },
            #Predicate { $0.float + tenth == 0.4 },
            #Predicate { $0.float / 3 <= third },
            #Predicate { -$0.float >= tenth && $0.float * 10 < big },
            #Predicate { 1 - $0.float * 4 != 1 },
            #Predicate { $0.int32 * 7 - 3 >= small || $0.int16 / 4 == 2 },
            #Predicate { (2...9).contains($0.int16 + 1) },
        ]
        forEachStore { container, kind in
            let context = container.newContext()
            for (n, value) in floats.enumerated() {
                let object = Everything(context: context)
                object.float = value
                object.int32 = Int32(n) * 3 - 17
                object.int16 = Int16(n)
            }
            try context.save()
            let all = try context.fetch(FetchRequest<Everything>(sortBy: [FetchSortDescriptor(\.int16)]))
            for predicate in predicates {
                let expected = try all.filter { try predicate.evaluate($0) }.map(\.int16)
                let fetched = try context.fetch(FetchRequest(predicate: predicate, sortBy: [FetchSortDescriptor(\.int16)])).map(\.int16)
                XCTAssertEqual(fetched, expected, "[\(kind)] \(predicate)")
            }
        }
    }

    func testUntranslatableConstructsThrowNamingThem() {
        let deadline = day(1)
        let cases: [(Foundation.Predicate<TestTask>, String)] = [
            (#Predicate { $0.count % 2 == 0 }, "PredicateExpressions.IntRemainder"),
            (#Predicate { $0.name.count > 3 }, "PredicateExpressions.KeyPath reading a Int from the String attribute name"),
            (#Predicate { ($0.estimate ?? 1) * 0 > 1 }, "Multiplying a floating-point attribute by zero"),
            (#Predicate { 10 / $0.count > 1 }, "Dividing by an attribute"),
            (#Predicate { $0.count / 0 > 1 }, "Division by zero"),
            (#Predicate { ($0.due ?? deadline) == deadline && $0.notes.flatMap { $0.count } == 2 },
             "PredicateExpressions.KeyPath reading a Int from the String attribute notes"),
        ]
        let scored: [(Foundation.Predicate<Scored>, String)] = [
            (#Predicate { $0.scores.max() == 3 }, "PredicateExpressions.SequenceMaximum on an attribute is not supported"),
            (#Predicate { $0.scores.contains(3) }, "PredicateExpressions.SequenceContains"),
            (#Predicate { $0.scores.filter { $0 > 2 }.isEmpty }, "PredicateExpressions.Filter is not supported"),
            (#Predicate { $0.name.contains(/mi+lk/) }, "PredicateExpressions.StringContainsRegex is not supported"),
            (#Predicate { $0.scores.contains { $0 > 2 } }, "PredicateExpressions.SequenceContainsWhere is not supported"),
        ]
        forEachStore { container, kind in
            let context = container.newContext()
            _ = try seed(context)
            for (predicate, construct) in cases { assertInvalid(context, FetchRequest(predicate: predicate), construct, "\(kind)") }
            let scoredContext = try PersistentContainer(model: ManagedObjectModel(entities: [Scored.self]), store: .inMemory).newContext()
            for (predicate, construct) in scored { assertInvalid(scoredContext, FetchRequest(predicate: predicate), construct, "\(kind)") }
        }
    }

    private func assertInvalid<T>(_ context: ManagedObjectContext, _ request: FetchRequest<T>, _ construct: String, _ label: String,
                                  file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try context.fetch(request), label, file: file, line: line) { error in
            XCTAssertEqual((error as? PersistError)?.code, .invalidPredicate, file: file, line: line)
            XCTAssertTrue("\(error)".contains(construct), "\(label): \(error) should name \(construct)", file: file, line: line)
        }
        XCTAssertThrowsError(try context.count(for: request), label, file: file, line: line)
    }

    func testConstantsAreFoldedByFoundationWhereOnlyValuesAreInvolved() throws {
        let directory = TemporaryDirectory()
        let context = try makeContainer(.inMemory, in: directory).newContext()
        _ = try seed(context)
        let counts = [3, 5, 1]
        let table = ["a": 4]
        let request = FetchRequest<TestTask>(predicate: #Predicate { $0.count >= counts.max()! && $0.count < (table["a"] ?? 0) + 3 },
                                             sortBy: [FetchSortDescriptor(\.count)])
        XCTAssertEqual(try context.fetch(request).map(\.count), [5, 6])
        let overflow = Int.max
        XCTAssertThrowsError(try context.fetch(FetchRequest<TestTask>(predicate: #Predicate { $0.count > overflow + 1 }))) { error in
            XCTAssertTrue("\(error)".contains("overflows Int"), "\(error)")
        }
    }

    // MARK: Sort descriptors

    func testFoundationSortDescriptorsSortAsFoundationDoes() {
        forEachStore { container, kind in
            let context = container.newContext()
            _ = try seed(context)
            let all = try context.fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.count)]))
            let descriptors: [[Foundation.SortDescriptor<TestTask>]] = [
                [SortDescriptor(\.due), SortDescriptor(\.count)],
                [SortDescriptor(\.due, order: .reverse), SortDescriptor(\.count)],
                [SortDescriptor(\.estimate, order: .reverse), SortDescriptor(\.name, comparator: .lexical)],
                [SortDescriptor(\.name)],
                [SortDescriptor(\.notes), SortDescriptor(\.count, order: .reverse)],
            ]
            for sort in descriptors {
                let fetched = try context.fetch(FetchRequest(predicate: #Predicate { _ in true }, sortBy: sort)).map(\.name)
                XCTAssertEqual(fetched, all.sorted(using: sort).map(\.name), "[\(kind)] \(sort)")
                var request = FetchRequest<TestTask>()
                request.setSortDescriptors(sort)
                XCTAssertEqual(try context.fetch(request).map(\.name), fetched, "[\(kind)] setSortDescriptors")
            }
        }
    }

    /// A SwiftData-style request resolves to Foundation's SortDescriptor (nil first, so last when
    /// reversed); a request without a Foundation predicate keeps PersistKit's (nils: .first).
    func testSwiftDataStyleRequestUsesFoundationSortSemantics() throws {
        let directory = TemporaryDirectory()
        let context = try makeContainer(.inMemory, in: directory).newContext()
        _ = try seed(context)
        let swiftData = FetchRequest(predicate: #Predicate<TestTask> { $0.count < 6 }, sortBy: [SortDescriptor(\.due, order: .reverse)])
        XCTAssertEqual(try context.fetch(swiftData).map(\.count), [4, 3, 2, 0, 1, 5])
        let native = FetchRequest<TestTask>(predicate: \.count < 6, sortBy: [FetchSortDescriptor(\.due, order: .reverse)])
        XCTAssertEqual(try context.fetch(native).map(\.count), [1, 5, 4, 3, 2, 0])
    }

    func testSortDescriptorByNonAttributeThrowsInvalidRequest() throws {
        let directory = TemporaryDirectory()
        let context = try makeContainer(.inMemory, in: directory).newContext()
        let request = FetchRequest(predicate: #Predicate<TestTask> { _ in true }, sortBy: [SortDescriptor(\TestTask.name.count)])
        XCTAssertThrowsError(try context.fetch(request)) { XCTAssertEqual(($0 as? PersistError)?.code, .invalidRequest) }
    }

    /// A string compared with `==` in a `#Predicate` is compared as stored, by its bytes, in SQL
    /// and in memory, as the format string's `==` is; not by Swift's canonical equivalence,
    /// under which a precomposed "é" equals "e" and U+0301 (the fuzz target
    /// `fuzz-foundation-predicate` reached this difference against Foundation's `evaluate`).
    func testStringEqualityComparesBytesNotCanonicalEquivalence() {
        forEachStore { container, kind in
            let context = container.newContext()
            let precomposed = "caf\u{E9}", decomposed = "cafe\u{301}"
            for name in [precomposed, decomposed] { TestTask(context: context).name = name }
            try context.save()
            TestTask(context: context).name = precomposed   // pending: judged in memory
            let request = FetchRequest<TestTask>(predicate: #Predicate { $0.name == decomposed })
            XCTAssertEqual(try context.fetch(request).map(\.name.utf8.count), [6], "[\(kind)]")
            XCTAssertEqual(try context.count(for: request), 1, "[\(kind)]")
            let stored = try context.fetch(FetchRequest<TestTask>()).filter { $0.name.utf8.count == 5 }
            XCTAssertEqual(stored.count, 2)
            // Foundation's own evaluate compares as Swift does.
            XCTAssertTrue(try #Predicate<TestTask> { $0.name == decomposed }.evaluate(stored[0]))
        }
    }

    // MARK: Results controller

    func testResultsControllerTakesAFoundationPredicate() throws {
        let directory = TemporaryDirectory()
        let context = try makeContainer(.sqlite, in: directory).newContext()
        let tasks = try seed(context)
        let request = FetchRequest<TestTask>(predicate: #Predicate { !$0.isComplete && $0.name.contains("milk") },
                                             sortBy: [FetchSortDescriptor(\.count)])
        let harness = try ControllerHarness(FetchedResultsController(fetchRequest: request, context: context))
        XCTAssertEqual(harness.controller.fetchedObjects.map(\.name), ["Buy milk", "milk the cow"])
        tasks[7].isComplete = false
        tasks[0].isComplete = true
        context.processPendingChanges()
        XCTAssertEqual(harness.controller.fetchedObjects.map(\.name), ["milk the cow", "oat milk"])
        XCTAssertEqual(harness.problems, [])
    }
}
