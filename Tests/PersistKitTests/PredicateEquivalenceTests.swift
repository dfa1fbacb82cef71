import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit
@testable import PersistKitText

/// An entity with one attribute of each kind the generated predicates compare.
final class Sample: ManagedObject {
    @Attribute var seq = 0
    @Attribute var name = ""
    @Attribute var note: String?
    @Attribute var int = 0
    @Attribute var optionalInt: Int?
    @Attribute var real = 0.0
    @Attribute var optionalReal: Double?
    @Attribute var date: Date?
    @Attribute var flag = false
    @Attribute var optionalFlag: Bool?
    @Attribute var priority: Priority?
    @Attribute var blob: Data?
}

/// Generated predicates and sorts give the same objects in the same order from SQL (saved
/// data) and from memory (the same data unsaved, `includesPendingChanges`).
final class PredicateEquivalenceTests: XCTestCase {
    static let strings = ["éclair", "Eclair", "ÉCLAIR", "e\u{301}clair", "straße", "STRASSE", "strasse", "İstanbul",
                          "istanbul", "ISTANBUL", "🍰 cake", "cake 🍰", "", "a", "A", "ab", "abc", "ABC", "Abc",
                          "file2", "file10", "File1", "x*y", "q?r", "naïve", "NAIVE", "Ωmega", "ωMEGA", "zz", "Z",
                          "日本語", "\\slash", " lead", "tail "]
    static let patterns = ["clair", "CLAIR", "É", "é", "e", "ss", "SS", "ß", "i", "İ", "I", "*", "*a*", "?b*", "a?c",
                           "", "🍰", "cake", "file", "10", "x\\*y", "ab", "A", "stan", "NAÏVE", "ω", "日本", " "]
    static let ints: [Int] = [0, 1, -1, 2, 42, -42, Int(Int64.max), Int(Int64.min), 1_000_000_000_000, 7]
    static let reals: [Double] = [0, -0.0, 1.5, -1.5, 1e300, -1e300, 42, 2.25, .infinity, -.infinity, 1e-300]
    static let dates: [Date] = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_800_000_000),
                                Date(timeIntervalSince1970: -86_400.5), Date(timeIntervalSince1970: 1_800_000_000.25)]

    /// A random stored value for an attribute, sometimes nil, sometimes from another pool.
    private func value(for attribute: String, using rng: inout SeededGenerator) -> SQLValue {
        if Int.random(in: 0..<8, using: &rng) == 0 { return .null }
        switch attribute {
        case "name", "note": return .text(Self.strings.randomElement(using: &rng) ?? "")
        case "int", "optionalInt", "seq":
            if Int.random(in: 0..<5, using: &rng) == 0 { return .real(Self.reals.randomElement(using: &rng) ?? 0) }
            return .integer(Int64(Self.ints.randomElement(using: &rng) ?? 0))
        case "real", "optionalReal":
            if Int.random(in: 0..<4, using: &rng) == 0 { return .integer(Int64(Self.ints.randomElement(using: &rng) ?? 0)) }
            return .real(Self.reals.randomElement(using: &rng) ?? 0)
        case "date": return .real((Self.dates.randomElement(using: &rng) ?? Date()).timeIntervalSince1970)
        case "flag", "optionalFlag": return .integer(Bool.random(using: &rng) ? 1 : 0)
        case "priority": return .integer(Int64(Int.random(in: 0...3, using: &rng)))
        default: return .blob(Data([UInt8](repeating: UInt8.random(in: 0...3, using: &rng), count: Int.random(in: 0...2, using: &rng))))
        }
    }

    static let attributes = ["name", "note", "int", "optionalInt", "real", "optionalReal", "date", "flag", "optionalFlag", "priority", "blob"]

    static let regexes = ["e.*", ".*clair", "[eé]clair", "É.*", "(?i)straße", "s.*e", ".", "..", "🍰.*", ".*🍰", "[a-z]+",
                          "[A-Z]+", "\\p{L}+", ".*[0-9]+", "x\\*y", "q.r", "", "İ.*", "i.*", "ω.*", "日本語", "\\\\slash",
                          " .*", ".* ", "(ab|abc)", "a?b?c?", "naïve", "na.ve", "e\u{301}clair", "E\\u0301clair"]

    /// A random Swift value for an attribute, for format arguments.
    private func swiftValue(for attribute: String, using rng: inout SeededGenerator) -> Any {
        switch attribute {
        case "name", "note": return Self.strings.randomElement(using: &rng) ?? ""
        case "real", "optionalReal": return Self.reals.randomElement(using: &rng) ?? 0
        case "date": return Self.dates.randomElement(using: &rng) ?? Date()
        default: return Self.ints.randomElement(using: &rng) ?? 0
        }
    }

    /// `MATCHES` and `BETWEEN %@` through the format parser and resolver.
    private func randomFormatNode(using rng: inout SeededGenerator) -> PredicateNode {
        do {
            if Bool.random(using: &rng) {
                let attribute = Bool.random(using: &rng) ? "name" : "note"
                let options = ["", "[c]", "[d]", "[cd]"].randomElement(using: &rng) ?? ""
                let pattern = Self.regexes.randomElement(using: &rng) ?? ""
                return try FetchPredicate<Sample>(format: "\(attribute) MATCHES\(options) %@", pattern).node
            }
            let attribute = ["name", "note", "int", "optionalInt", "real", "optionalReal", "date", "seq"].randomElement(using: &rng) ?? "int"
            let bounds = [swiftValue(for: attribute, using: &rng), swiftValue(for: attribute, using: &rng)]
            let negation = Bool.random(using: &rng) ? "NOT " : ""
            return try FetchPredicate<Sample>(format: "\(negation)\(attribute) BETWEEN %@", argumentArray: [bounds]).node
        } catch {
            return .invalid(error as? PersistError ?? PersistError(.invalidPredicate, "\(error)"))
        }
    }

    private func randomNode(depth: Int, using rng: inout SeededGenerator) -> PredicateNode {
        var choice = Int.random(in: 0..<(depth > 0 ? 15 : 11), using: &rng)
        if choice == 9 || choice == 10 { return randomValuesNode(using: &rng) }
        if choice > 10 { choice -= 2 }
        switch choice {
        case 0, 1, 2:
            let attribute = Self.attributes.randomElement(using: &rng) ?? "int"
            let ops: [ComparisonOperator] = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]
            return .compare(attribute: attribute, ops.randomElement(using: &rng) ?? .equal, value(for: attribute, using: &rng))
        case 3, 4:
            let attribute = Bool.random(using: &rng) ? "name" : "note"
            let ops: [TextMatchOperator] = [.equal, .contains, .beginsWith, .endsWith, .like]
            let pattern = Bool.random(using: &rng) ? (Self.patterns.randomElement(using: &rng) ?? "") : (Self.strings.randomElement(using: &rng) ?? "")
            return .text(attribute: attribute, ops.randomElement(using: &rng) ?? .contains, pattern,
                         StringComparisonOptions(rawValue: Int.random(in: 0...3, using: &rng)))
        case 5:
            // Long lists are hash sets in memory.
            let attribute = Self.attributes.randomElement(using: &rng) ?? "int"
            let count = Bool.random(using: &rng) ? Int.random(in: 0...4, using: &rng) : Int.random(in: 9...30, using: &rng)
            return .inList(attribute: attribute, (0..<count).map { _ in value(for: attribute, using: &rng) })
        case 6:
            return .constant(Bool.random(using: &rng))
        case 7, 8:
            return randomFormatNode(using: &rng)
        case 9:
            // Equalities on one attribute in an OR become one IN list.
            let attribute = Self.attributes.randomElement(using: &rng) ?? "int"
            return .or((0..<Int.random(in: 2...5, using: &rng)).map { _ in
                Bool.random(using: &rng) ? .compare(attribute: attribute, .equal, value(for: attribute, using: &rng))
                                         : .inList(attribute: attribute, [value(for: attribute, using: &rng)])
            } + [randomNode(depth: depth - 1, using: &rng)])
        case 10:
            return .not(randomNode(depth: depth - 1, using: &rng))
        case 11:
            return .and((0..<Int.random(in: 1...3, using: &rng)).map { _ in randomNode(depth: depth - 1, using: &rng) })
        default:
            return .or((0..<Int.random(in: 1...3, using: &rng)).map { _ in randomNode(depth: depth - 1, using: &rng) })
        }
    }

    static let numericAttributes = ["int", "optionalInt", "real", "optionalReal", "date", "seq", "flag", "priority"]
    /// Numbers where SQLite's arithmetic has edges: zero, -1 (Int64.min / -1), the extremes
    /// (overflow into reals), reals that are and are not whole, infinities, nil.
    static let arithmeticConstants: [SQLValue] = [.integer(0), .integer(1), .integer(-1), .integer(2), .integer(7), .integer(-3),
                                                  .integer(Int64.max), .integer(Int64.min), .integer(3_037_000_500), .real(0),
                                                  .real(-0.0), .real(2.5), .real(7), .real(-1e300), .real(.infinity), .real(86_400), .null]

    /// A comparison of two computed values: key with key (any two attributes, whatever their
    /// types: SQL must not convert either), text operators between string keys, arithmetic.
    private func randomValuesNode(using rng: inout SeededGenerator) -> PredicateNode {
        let ops: [ComparisonOperator] = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]
        let op = ops.randomElement(using: &rng) ?? .equal
        switch Int.random(in: 0..<4, using: &rng) {
        case 0:
            return .values(.key(Self.attributes.randomElement(using: &rng) ?? "int"), .order(op),
                           .key(Self.attributes.randomElement(using: &rng) ?? "real"))
        case 1:
            let textOps: [TextMatchOperator] = [.equal, .contains, .beginsWith, .endsWith, .like]
            return .values(.key(Bool.random(using: &rng) ? "name" : "note"),
                           .text(textOps.randomElement(using: &rng) ?? .equal, StringComparisonOptions(rawValue: Int.random(in: 0...3, using: &rng))),
                           .key(Bool.random(using: &rng) ? "name" : "note"))
        default:
            return .values(randomComputed(depth: 3, using: &rng), .order(op), randomComputed(depth: 2, using: &rng))
        }
    }

    private func randomComputed(depth: Int, using rng: inout SeededGenerator) -> PredicateValue {
        switch Int.random(in: 0..<(depth > 0 ? 6 : 3), using: &rng) {
        case 0, 1: return .key(Self.numericAttributes.randomElement(using: &rng) ?? "int")
        case 2: return .constant(Self.arithmeticConstants.randomElement(using: &rng) ?? .null)
        case 3: return .negated(randomComputed(depth: depth - 1, using: &rng))
        default:
            return .arithmetic(ArithmeticOperator.allCases.randomElement(using: &rng) ?? .add,
                               randomComputed(depth: depth - 1, using: &rng), randomComputed(depth: depth - 1, using: &rng))
        }
    }

    private func randomSorts(using rng: inout SeededGenerator) -> [FetchSortDescriptor<Sample>] {
        (0..<Int.random(in: 0...3, using: &rng)).map { _ in
            let comparisons: [FetchSortDescriptor<Sample>.StringComparison] = [.binary, .caseInsensitive, .localizedStandard]
            return FetchSortDescriptor<Sample>(key: Self.attributes.randomElement(using: &rng) ?? "name",
                                                     order: Bool.random(using: &rng) ? .forward : .reverse,
                                                     nils: Bool.random(using: &rng) ? .first : .last,
                                                     comparison: comparisons.randomElement(using: &rng) ?? .binary)
        }
    }

    func testGeneratedPredicatesAgreeInSQLAndInMemory() throws {
        try checkGeneratedPredicates(#function, iterations: 2_500) { $0 }
    }

    /// The same, with each predicate padded past 2,000 comparisons (an always-true `seq > -1
    /// AND ... AND seq > -2001`, which no list can merge), so that SQL runs it through `pk_predicate` (the evaluator as
    /// an SQL function, on the encoded predicate).
    func testGeneratedPredicatesAgreeThroughThePredicateFunction() throws {
        let padding = PredicateNode.and((1...2_001).map { .compare(attribute: "seq", .greater, .integer(-Int64($0))) })
        let entity = try XCTUnwrap(FetchPredicate<Sample>.defaultEntity())
        let sample = try PredicateSQLCompiler.compile(.and([padding, .compare(attribute: "int", .equal, .integer(1))]), entity: entity)
        XCTAssertTrue(sample.sql.hasPrefix(PredicateFunction.name), sample.sql.prefix(100) + "…")
        try checkGeneratedPredicates(#function, iterations: ProcessInfo.processInfo.environment["CI"] == "true" ? 80 : 200) {
            .and([$0, padding])
        }
    }

    private func checkGeneratedPredicates(_ name: String, iterations: Int,
                                          wrap: (PredicateNode) -> PredicateNode) throws {
        let seed = testSeed(name)
        var rng = SeededGenerator(seed: seed)
        let directory = TemporaryDirectory()
        let (_, pending, model) = try makeSavedAndPendingSamples(in: directory, using: &rng)
        let reader = try PersistentContainer(model: model, store: .sqlite(directory.file("saved.sqlite"))).newContext()

        var failures = 0
        var nonTrivial = 0
        for iteration in 0..<iterations {
            var request = FetchRequest<Sample>(predicate: FetchPredicate(node: wrap(randomNode(depth: 3, using: &rng))),
                                               sortBy: randomSorts(using: &rng))
            if Int.random(in: 0..<5, using: &rng) == 0 {
                request.fetchLimit = Int.random(in: 1...30, using: &rng)
                request.fetchOffset = Int.random(in: 0...10, using: &rng)
            }
            let fromSQL = try reader.fetch(request).map(\.seq)
            let fromMemory = try pending.fetch(request).map(\.seq)
            let countSQL = try reader.count(for: request)
            let countMemory = try pending.count(for: request)
            if fromSQL.count > 0 && fromSQL.count < 240 { nonTrivial += 1 }
            if fromSQL != fromMemory || countSQL != fromSQL.count || countMemory != fromMemory.count {
                failures += 1
                if failures <= 3 {
                    XCTFail("""
                        seed \(seed) iteration \(iteration): SQL and memory disagree
                        predicate: \(request.predicate.map { String(describing: $0.node).prefix(2_000) } ?? "none")
                        sorts: \(request.sortDescriptors.map { "\($0.key) \($0.order) \($0.nils) \($0.comparison)" })
                        limit \(request.fetchLimit) offset \(request.fetchOffset)
                        SQL    (\(countSQL)): \(fromSQL)
                        memory (\(countMemory)): \(fromMemory)
                        """)
                }
            }
        }
        XCTAssertEqual(failures, 0, "seed \(seed): \(failures) of \(iterations) generated requests disagreed (rerun with PERSISTKIT_SEED=\(seed))")
        XCTAssertGreaterThan(nonTrivial, iterations / 5, "seed \(seed): too few predicates selected a proper subset to prove anything")
    }

    /// Saved rows, pending inserts, pending updates and pending deletions, mixed: a fetch gives
    /// what a store holding the final state gives.
    func testFetchMergesPendingChangesLikeTheSavedResult() throws {
        let seed = testSeed(#function)
        var rng = SeededGenerator(seed: seed)
        let model = try ManagedObjectModel(entities: [Sample.self])
        for round in 0..<40 {
            let mixed = try PersistentContainer(model: model, store: .inMemory).newContext()
            let truth = try PersistentContainer(model: model, store: .inMemory).newContext()
            var first = rng
            makeSamples(mixed, count: 60, using: &first)
            try mixed.save()
            makeSamples(truth, count: 60, using: &rng)
            try truth.save()
            // The same edits in both; only `truth` saves them.
            let mixedObjects = try mixed.fetch(FetchRequest<Sample>(sortBy: [.init(key: "seq")]))
            let truthObjects = try truth.fetch(FetchRequest<Sample>(sortBy: [.init(key: "seq")]))
            for _ in 0..<20 {
                let index = Int.random(in: 0..<60, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0:
                    mixed.delete(mixedObjects[index]); truth.delete(truthObjects[index])
                case 1:
                    let name = Self.strings.randomElement(using: &rng) ?? ""
                    mixedObjects[index].name = name; truthObjects[index].name = name
                case 2:
                    let int = Self.ints.randomElement(using: &rng) ?? 0
                    mixedObjects[index].int = int; truthObjects[index].int = int
                default:
                    let a = Sample(context: mixed), b = Sample(context: truth)
                    let seq = 1000 + Int.random(in: 0..<1000, using: &rng)
                    let name = Self.strings.randomElement(using: &rng) ?? ""
                    a.seq = seq; b.seq = seq; a.name = name; b.name = name
                }
            }
            try truth.save()
            for _ in 0..<40 {
                var request = FetchRequest<Sample>(predicate: FetchPredicate(node: randomNode(depth: 2, using: &rng)),
                                                   sortBy: randomSorts(using: &rng) + [.init(key: "seq")])
                if Bool.random(using: &rng) {
                    request.fetchLimit = Int.random(in: 1...20, using: &rng)
                    request.fetchOffset = Int.random(in: 0...5, using: &rng)
                }
                let expected = try truth.fetch(request).map(\.seq)
                let actual = try mixed.fetch(request).map(\.seq)
                XCTAssertEqual(actual, expected, "seed \(seed) round \(round): \(String(describing: request.predicate?.node))")
                XCTAssertEqual(try mixed.count(for: request), expected.count, "seed \(seed) round \(round): count")
                if actual != expected { return }
            }
        }
    }

    func testFormatAndBuilderPredicatesCompileAlike() throws {
        let directory = TemporaryDirectory()
        let context = try makeContainer(.sqlite, in: directory).newContext()
        for (name, done, due) in [("Buy milk", false, 1), ("buy bread", true, 2), ("Call mom", false, 0)] {
            let task = TestTask(context: context)
            task.name = name
            task.isComplete = done
            task.due = due == 0 ? nil : day(due)
        }
        try context.save()
        let pairs: [(FetchPredicate<TestTask>, FetchPredicate<TestTask>)] = [
            (try .init(format: "isComplete == NO AND name BEGINSWITH[cd] %@", "BUY"),
             \.isComplete == false && .beginsWith(\.name, "BUY", options: [.caseInsensitive, .diacriticInsensitive])),
            (try .init(format: "due == nil"), \.due == nil),
            (try .init(format: "priority IN %@", [Priority.normal, Priority.high]), .in(\.priority, [.normal, .high])),
            (try .init(format: "NOT (due < %@) OR isComplete == YES", day(2)), !(\.due < day(2)) || \.isComplete == true),
        ]
        for (format, builder) in pairs {
            let a = try context.fetch(FetchRequest<TestTask>(predicate: format, sortBy: [FetchSortDescriptor(\.name)])).map(\.name)
            let b = try context.fetch(FetchRequest<TestTask>(predicate: builder, sortBy: [FetchSortDescriptor(\.name)])).map(\.name)
            XCTAssertEqual(a, b, "\(format) vs \(builder)")
        }
        XCTAssertEqual(try context.fetch(FetchRequest<TestTask>(predicate: try .init(format: "name ==[cd] %@", "BUY MILK"))).count, 1)
    }

    func testBadFormatsThrowInvalidPredicate() {
        for (format, args) in [("name BEGINSWITH[cd", [Any]()), ("nosuchkey == 1", []), ("name == %@", []),
                               ("due < %@", ["not a date"]), ("isComplete ==", []), ("name CONTAINS 5", []),
                               ("(name == 'a'", []), ("priority IN 3", [])] {
            XCTAssertThrowsError(try FetchPredicate<TestTask>(format: format, argumentArray: args), format) { error in
                XCTAssertEqual((error as? PersistError)?.code, .invalidPredicate, format)
                XCTAssertTrue("\(error)".contains("position") || "\(error)".contains("key"), "\(error)")
            }
        }
    }

    func testKeyPathThatIsNotAnAttributeThrowsAtFetch() throws {
        let directory = TemporaryDirectory()
        let context = try makeContainer(.inMemory, in: directory).newContext()
        let request = FetchRequest<TestTask>(predicate: \.name.count == 3)
        XCTAssertThrowsError(try context.fetch(request)) { XCTAssertEqual(($0 as? PersistError)?.code, .invalidPredicate) }
    }
}
