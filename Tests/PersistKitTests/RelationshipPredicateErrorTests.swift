import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Bad key paths and misuse of relationships in predicates: a `PersistError` saying what and
/// where (the key path, the entity, what to write instead), never a crash.
final class RelationshipPredicateErrorTests: XCTestCase {
    private func assertFormatError(_ format: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        assertFormatError(format, [], message, file: file, line: line)
    }

    private func assertFormatError(_ format: String, _ arguments: [Any], _ message: String,
                                   file: StaticString = #filePath, line: UInt = #line) {
        expectError(try FetchPredicate<RPTask>(format: format, argumentArray: arguments), .invalidPredicate, format,
                    file: file, line: line) { error in
            XCTAssertTrue(error.message.contains(message), "\(format): \(error.message)", file: file, line: line)
        }
    }

    func testKeyPathsThroughToManysSayWhatToWrite() {
        assertFormatError("tags.name == 'x'", "The key path tags.name goes through the to-many relationship RPTask.tags")
        assertFormatError("tags.name == 'x'", "write ANY tags.name (or ALL, NONE), tags.@count, or SUBQUERY(tags, $x, $x.name ...).@count")
        assertFormatError("project.tasks.title BEGINSWITH 'a'", "goes through the to-many relationship RPProject.tasks")
        assertFormatError("tags == %@", [NSNull()], "goes through the to-many relationship RPTask.tags")
        assertFormatError("ANY tags.tasks.@count > 1", "cannot be combined with @count")
    }

    func testUnknownKeysNameTheEntityAndKey() {
        assertFormatError("project.colour == 'red'", "Unknown key 'colour' in key path 'project.colour': RPProject has no attribute or relationship named colour")
        assertFormatError("project.colour == 'red'", "it has name, rank, budget, owner, tasks")
        assertFormatError("nope.name == 1", "RPTask has no attribute or relationship named nope")
        assertFormatError("project.name.first == 'x'", "RPProject.name is an attribute: the key path project.name.first cannot go on past it")
        assertFormatError("ANY tags.colour == 1", "RPTag has no attribute or relationship named colour")
        assertFormatError("tags.@sum.colour > 1", "RPTag has no attribute or relationship named colour")
        assertFormatError("tags.@bogus.weight > 1", "Unknown collection operator @bogus")
        assertFormatError("project.@count == 1", "@count must follow a to-many relationship")
        assertFormatError("tags.@count.weight == 1", "@count ends a key path")
        assertFormatError("tags.@sum == 1", "@sum needs one attribute of RPTag")
        assertFormatError("tags.@sum.name > 1", "@sum needs a number attribute; RPTag.name is string")
        assertFormatError((["project"] + Array(repeating: "owner", count: 30)).joined(separator: ".") + " == nil",
                          "follows more than 16 relationships")
    }

    func testRelationshipsAreComparedWithObjects() {
        assertFormatError("project == 'Home'", "project is compared with RPProject objects or their ObjectIDs, not String")
        assertFormatError("project > nil", "can only be compared with ==, != or IN")
        assertFormatError("project BEGINSWITH 'H'", "can only be compared with ==, != or IN")
        assertFormatError("project ==[c] nil", "[c] and [d] apply to strings")
        assertFormatError("project IN 'x'", "IN needs a collection of RPProject objects")
        assertFormatError("ANY project.name == 'x'", "ANY needs a key path through a to-many relationship; project.name goes through none")
        assertFormatError("tags.@count == 'x'", "tags.@count is a number, not String")
        assertFormatError("tags.@count CONTAINS 1", "is compared with ==, !=, <, <=, >, >=, BETWEEN or IN")
        assertFormatError("tags.@count ==[c] 1", "[c] and [d] apply to strings")
        assertFormatError("tags.@count == $N", "$N cannot be compared with tags.@count")
    }

    func testObjectsOfTheWrongEntity() throws {
        let fixture = try PredicateGraphFixture()
        let tag = try XCTUnwrap(fixture.tags["later"])
        assertFormatError("project == %@", [tag], "project is a RPProject, not a RPTag")
        assertFormatError("project IN %@", [[tag.objectID]], "project is a RPProject, not a RPTag")
        assertFormatError("tags CONTAINS %@", [try XCTUnwrap(fixture.projects["Home"])], "The object is a RPTag, not a RPProject")
        let typed: FetchPredicate<RPTask> = .contains(\RPTask.tags, tag)
        XCTAssertNoThrow(try fixture.context.fetch(FetchRequest(predicate: typed)))
    }

    func testSubqueryMistakes() {
        assertFormatError("SUBQUERY(project, $p, $p.name == 'x').@count > 0", "SUBQUERY's first argument must be a to-many relationship")
        assertFormatError("SUBQUERY(tags, $t, name == 'x').@count > 0", "key paths start with the variable: write $t.name")
        assertFormatError("SUBQUERY(tags, $t, $u.name == 'x').@count > 0", "$u is not the variable of the innermost SUBQUERY")
        assertFormatError("SUBQUERY(tags, $t, $t.name == 'x') > 0", "expected .@count after SUBQUERY(...)")
        assertFormatError("SUBQUERY(tags, $t, $t.name == 'x').@sum > 0", "expected .@count after SUBQUERY(...)")
        assertFormatError("SUBQUERY(tags, t, $t.name == 'x').@count > 0", "expected a variable ($x) as SUBQUERY's second argument")
        assertFormatError("SUBQUERY(tags $t, $t.name == 'x').@count > 0", "expected ',' after 'tags' in SUBQUERY")
        assertFormatError("SUBQUERY(tags, $t, $t.name == 'x'", "expected ')' to close the '('")
        assertFormatError("$t.name == 'x'", "reads a SUBQUERY variable, but it is not inside a SUBQUERY")
        let nested = (0..<9).reduce("$v9.name == 'x'") { inner, level in "SUBQUERY($v\(9 - level).tasks, $v\(8 - level), \(inner)).@count > 0" }
        assertFormatError(nested.replacingOccurrences(of: "$v0.tasks", with: "tags"), "SUBQUERY expressions are nested too deeply")
    }

    func testTypedKeyPathsThatNameNoRelationshipPath() throws {
        let fixture = try PredicateGraphFixture()
        let cases: [(FetchPredicate<RPTask>, String)] = [
            (\RPTask.tags.first?.name == "x", "reads name of a to-many's objects: use .any(\\.tags, \\.name == ...)"),
            (\RPTask.project?.name?.count == 3, "not an @Attribute or a @Relationship"),
            (.any(\RPTask.project, \RPProject.name == "x"), "project is not a to-many relationship of RPTask"),
            (\RPTask.tags.isEmpty == true, "tags is a to-many relationship: use .any(\\.tags, ...), .all, .none or .count(\\.tags)"),
        ]
        for (predicate, message) in cases {
            expectError(try fixture.context.fetch(FetchRequest(predicate: predicate)), .invalidPredicate, message) { error in
                XCTAssertTrue(error.message.contains(message), "\(error.message)")
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func testFoundationPredicatesThatCannotBeTranslated() throws {
        let fixture = try PredicateGraphFixture()
        let cases: [(Foundation.Predicate<RPTask>, String)] = [
            (#Predicate { task in task.tags.contains { tag in tag.name == task.title } }, "not bound"),
            (#Predicate { $0.tags.filter { $0.weight == 1 }.count > 0 }, "PredicateExpressions.Filter is not supported"),
            (#Predicate { $0.tags.first?.name == "x" }, "is not supported"),
            (#Predicate { $0.project?.tasks.count == $0.rank }, "to-many"),
        ]
        for (predicate, message) in cases {
            expectError(try fixture.context.fetch(FetchRequest(predicate: predicate)), .invalidPredicate, message) { error in
                XCTAssertTrue(error.message.contains(message), "\(error.message)")
            }
        }
    }

    /// Random formats built from relationship syntax: each one either fails to build with a
    /// `PersistError` or fetches (answering the same in SQL and memory); none crashes.
    func testRandomRelationshipSyntaxNeverCrashes() throws {
        let seed = testSeed("RelationshipPredicateErrorTests.testRandomRelationshipSyntaxNeverCrashes")
        var rng = SeededGenerator(seed: seed)
        let fixture = try PredicateGraphFixture()
        let fragments = ["ANY", "ALL", "NONE", "SOME", "SUBQUERY", "(", ")", ",", "$t", "$t.name", "$t.tasks", "$u", "tags", "tags.name",
                         "tags.@count", "tags.@sum.weight", "tags.@avg", "@count", ".@count", "project", "project.name",
                         "project.owner.name", "project.tasks", "project.@count", "blocker.blocker", "==", "!=", "<", "IN",
                         "CONTAINS", "BEGINSWITH[cd]", "BETWEEN", "AND", "OR", "NOT", "nil", "1", "'x'", "%@", "{1, 2}", "tags.", ".", "@"]
        let keys = ["tags.name", "tags", "tags.@count", "tags.@sum.weight", "tags.@max.name", "project", "project.name", "project.tasks.@count",
                    "project.tasks.title", "project.owner.name", "blocker.project.rank", "watchers.name", "tags.tasks.title", "title", "rank",
                    "SUBQUERY(tags, $t, $t.name == 'x').@count", "SUBQUERY(project.tasks, $t, ANY $t.tags.weight > 1).@count", "$t.name"]
        let operators = ["==", "!=", "<", ">=", "IN", "CONTAINS", "BEGINSWITH[c]", "BETWEEN"]
        let values = ["nil", "1", "'x'", "%@", "{1, 2}", "{'x', nil}"]
        func term(_ rng: inout SeededGenerator) -> String {
            var words = [["", "", "ANY ", "ALL ", "NONE ", "SOME "].randomElement(using: &rng) ?? "", keys.randomElement(using: &rng) ?? "",
                         operators.randomElement(using: &rng) ?? "", values.randomElement(using: &rng) ?? ""]
            if Int.random(in: 0..<3, using: &rng) == 0 {
                words.insert(fragments.randomElement(using: &rng) ?? "", at: Int.random(in: 0...words.count, using: &rng))
            }
            return words.joined(separator: " ")
        }
        var built = 0
        for iteration in 0..<(isCI ? 1_500 : 4_000) {
            var format = term(&rng)
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                format = "(\(format)) \(["AND", "OR", "AND NOT"].randomElement(using: &rng) ?? "AND") \(term(&rng))"
            }
            let argumentCount = format.components(separatedBy: "%@").count - 1
            let arguments: [Any] = (0..<argumentCount).map { _ in
                [fixture.projects["Home"] as Any, "x", 1, [fixture.tags["later"] as Any], fixture.tasks["Buy milk"] as Any]
                    .randomElement(using: &rng) ?? 1
            }
            guard let predicate = try? FetchPredicate<RPTask>(format: format, argumentArray: arguments) else { continue }
            built += 1
            do {
                let sql = try fixture.sqlTitles(predicate)
                XCTAssertEqual(sql, try fixture.memoryTitles(predicate), "seed \(seed) iteration \(iteration): \(format)")
            } catch {
                XCTAssertTrue(error is PersistError, "seed \(seed) iteration \(iteration): \(format): \(error)")
            }
        }
        print("RelationshipPredicateErrorTests: \(built) random formats were valid and fetched")
        XCTAssertGreaterThan(built, 20, "seed \(seed): too few formats were valid to prove anything")
    }

    /// Predicates too large for plain SQL still work through relationships: the parts without
    /// relationships go through `pk_predicate`, inside the subqueries too; long lists work
    /// through them as JSON arrays.
    func testLargePredicatesThroughRelationships() throws {
        let fixture = try PredicateGraphFixture()
        let names = (0..<6_000).map { "name \($0)" } + ["Home"]
        fixture.check(try FetchPredicate(format: "project.name IN %@", names), RelationshipPredicateTests.home)
        fixture.check(try FetchPredicate(format: "NOT project.name IN %@", names), RelationshipPredicateTests.work + ["Weed beds", "Loose end"])
        fixture.check(try FetchPredicate(format: "ANY tags.name IN %@ AND title IN %@", names + ["urgent"], names + ["Call mom", "Weed beds"]),
                      ["Call mom", "Weed beds"])
        let projects = try fixture.container.newContext().fetch(FetchRequest<RPProject>())
        let padding = (0..<5_001).map { _ in try? XCTUnwrap(fixture.projects["Empty"]) }.compactMap { $0 }
        fixture.check(try FetchPredicate(format: "project IN %@", padding + projects.filter { $0.name == "Work" }), RelationshipPredicateTests.work)
        // More comparisons than SQLite prepares quickly, beside a relationship condition.
        let later = try FetchPredicate<RPTask>(format: "ANY tags.name == 'later' OR project.owner.name == 'Bob'").node
        let many = FetchPredicate<RPTask>(node: .and([later] + (0..<2_001).map { .not(.compare(attribute: "rank", .greaterOrEqual, .integer(1_000 + Int64($0)))) }))
        fixture.check(many, ["Call mom", "Plan trip", "Write report"])
        let entity = try XCTUnwrap(fixture.container.model.entity(named: "RPTask"))
        XCTAssertTrue(try PredicateSQLCompiler.compile(many.node, entity: entity).sql.contains(PredicateFunction.name))
        // A long list alone is one JSON array, in plain SQL.
        let listed = try PredicateSQLCompiler.compile(try FetchPredicate<RPTask>(format: "project.name IN %@", names).node, entity: entity).sql
        XCTAssertFalse(listed.contains(PredicateFunction.name), listed)
        XCTAssertTrue(listed.contains("json_each("), listed)
    }

    /// Relationship conditions nested deeper than SQL can take are refused with an error.
    func testRelationshipConditionsNestedTooDeeply() throws {
        let fixture = try PredicateGraphFixture()
        var predicate: FetchPredicate<RPTag> = \RPTag.name == "x"
        for _ in 0..<10 {
            predicate = .any(\RPTag.tasks, .any(\RPTask.tags, predicate))
        }
        expectError(try fixture.context.fetch(FetchRequest(predicate: predicate)), .invalidPredicate, "deep") { error in
            XCTAssertTrue(error.message.contains("too large or too deeply nested") || error.message.contains("levels deep"), error.message)
        }
    }
}
