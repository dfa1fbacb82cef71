import Foundation
import PersistKitTestSupport
@testable import PersistKit

/// Random format predicates over the predicate graph (``PredicateGraphEntities``): comparisons
/// through to-ones, related objects, ANY/ALL/NONE (flattened through several to-manys),
/// `@count`, aggregates, `CONTAINS`/`IN` with objects, and nested SUBQUERY counts, in AND, OR
/// and NOT groups. Values include nil; objects include unsaved and deleted ones.
struct RelationshipPredicateGenerator {
    enum Kind { case string, int, double, bool }

    /// What a generated predicate can read from one entity.
    struct Shape {
        /// Attributes, and key paths through to-ones to attributes.
        let scalars: [(String, Kind)]
        /// To-ones (key paths through to-ones to a to-one), with their destination entity.
        let toOnes: [(String, String)]
        /// To-manys (perhaps after to-ones), with their destination entity.
        let toManys: [(String, String)]
        /// Number attributes of this entity, for aggregates over it.
        let numbers: [String]
        /// String attributes of this entity, for @min/@max.
        let strings: [String]
    }

    static let shapes: [String: Shape] = [
        "RPTask": Shape(
            scalars: [("title", .string), ("rank", .int), ("done", .bool), ("project.name", .string), ("project.rank", .int),
                      ("project.budget", .double), ("project.owner.name", .string), ("blocker.title", .string),
                      ("blocker.rank", .int), ("blocker.project.name", .string), ("blocker.blocker.rank", .int)],
            toOnes: [("project", "RPProject"), ("blocker", "RPTask"), ("project.owner", "RPOwner"), ("blocker.project", "RPProject")],
            toManys: [("tags", "RPTag"), ("watchers", "RPOwner"), ("project.tasks", "RPTask"), ("blocker.tags", "RPTag")],
            numbers: ["rank"], strings: ["title"]),
        "RPProject": Shape(
            scalars: [("name", .string), ("rank", .int), ("budget", .double), ("owner.name", .string)],
            toOnes: [("owner", "RPOwner")],
            toManys: [("tasks", "RPTask"), ("owner.projects", "RPProject")],
            numbers: ["rank", "budget"], strings: ["name"]),
        "RPTag": Shape(scalars: [("name", .string), ("weight", .int)], toOnes: [], toManys: [("tasks", "RPTask")],
                       numbers: ["weight"], strings: ["name"]),
        "RPOwner": Shape(scalars: [("name", .string)], toOnes: [], toManys: [("projects", "RPProject")],
                         numbers: [], strings: ["name"]),
    ]

    static let strings = ["Home", "home", "Work", "Garden", "", "éclair", "Eclair", "milk", "Milk", "a", "x"]
    static let patterns = ["", "a", "o", "E", "é", "milk", "Ho", "rk", "*o*", "?a*"]
    static let ints = [-1, 0, 1, 2, 3, 5, 8]
    static let doubles = [-1.5, 0, 0.5, 2, 2.5, 10]

    /// The objects `%@` arguments are drawn from, by entity (saved, unsaved and deleted ones).
    var objects: [String: [ManagedObject]]
    var rng: SeededGenerator
    private var variables = 0

    init(objects: [String: [ManagedObject]], rng: SeededGenerator) {
        self.objects = objects
        self.rng = rng
    }

    /// A predicate on `entity`, keys prefixed with `prefix` (`$v1.` inside a SUBQUERY).
    mutating func predicate(on entity: String, prefix: String = "", depth: Int) -> (String, [Any]) {
        let choice = Int.random(in: 0..<(depth > 0 ? 14 : 10), using: &rng)
        switch choice {
        case 0, 1, 2: return scalar(on: entity, prefix: prefix)
        case 3: return object(on: entity, prefix: prefix)
        case 4, 5: return quantified(on: entity, prefix: prefix, depth: depth)
        case 6: return count(on: entity, prefix: prefix)
        case 7: return aggregate(on: entity, prefix: prefix)
        case 8: return membership(on: entity, prefix: prefix)
        case 9: return depth > 0 ? subquery(on: entity, prefix: prefix, depth: depth) : scalar(on: entity, prefix: prefix)
        case 10:
            let (format, arguments) = predicate(on: entity, prefix: prefix, depth: depth - 1)
            return ("NOT (\(format))", arguments)
        default:
            let parts = (0..<Int.random(in: 2...3, using: &rng)).map { _ in predicate(on: entity, prefix: prefix, depth: depth - 1) }
            let joiner = choice == 11 ? " AND " : " OR "
            return ("(" + parts.map(\.0).joined(separator: joiner) + ")", parts.flatMap(\.1))
        }
    }

    private mutating func pick<T>(_ values: [T]) -> T {
        values[Int.random(in: 0..<values.count, using: &rng)]
    }

    /// A value of the kind, or nil (written `nil` in the format).
    private mutating func value(_ kind: Kind) -> Any? {
        if Int.random(in: 0..<7, using: &rng) == 0 { return nil }
        return someValue(kind)
    }

    private mutating func someValue(_ kind: Kind) -> Any {
        switch kind {
        case .string: return pick(Self.strings)
        case .int: return pick(Self.ints)
        case .double: return pick(Self.doubles)
        case .bool: return Bool.random(using: &rng)
        }
    }

    /// `key op value`, with nil written as `nil`.
    private func written(_ key: String, _ op: String, _ value: Any?) -> (String, [Any]) {
        guard let value else { return ("\(key) \(op) nil", []) }
        return ("\(key) \(op) %@", [value])
    }

    /// A comparison of a key (an attribute, or a path through to-ones) with a value.
    mutating func comparison(_ key: String, _ kind: Kind) -> (String, [Any]) {
        switch kind {
        case .string:
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                let op = pick(["BEGINSWITH", "CONTAINS", "ENDSWITH", "LIKE", "=="])
                let options = pick(["", "[c]", "[d]", "[cd]"])
                return ("\(key) \(op)\(options) %@", [op == "LIKE" ? pick(Self.patterns) : pick(Self.patterns + Self.strings)])
            case 1:
                return ("\(key) IN %@", [(0..<Int.random(in: 0...3, using: &rng)).map { _ in someValue(.string) }])
            default:
                return written(key, pick(["==", "!=", "<", ">=", "<="]), value(.string))
            }
        case .int, .double:
            if Int.random(in: 0..<5, using: &rng) == 0 {
                let low = kind == .int ? pick(Self.ints) as Any : pick(Self.doubles) as Any
                let high = kind == .int ? pick(Self.ints) as Any : pick(Self.doubles) as Any
                return ("\(key) BETWEEN %@", [[low, high]])
            }
            return written(key, pick(["==", "!=", "<", "<=", ">", ">="]), value(kind))
        case .bool:
            return written(key, pick(["==", "!="]), value(.bool))
        }
    }

    private mutating func scalar(on entity: String, prefix: String) -> (String, [Any]) {
        guard let shape = Self.shapes[entity] else { return ("TRUEPREDICATE", []) }
        if Int.random(in: 0..<3, using: &rng) == 0 { return computed(shape, prefix: prefix) }
        let (key, kind) = pick(shape.scalars)
        return comparison(prefix + key, kind)
    }

    /// A key compared with another key (through to-ones too), or arithmetic on keys and
    /// values: `rank > project.rank`, `title CONTAINS[c] project.name`, `(rank - 1) * 2 >= project.budget / %@`.
    private mutating func computed(_ shape: Shape, prefix: String) -> (String, [Any]) {
        let numbers = shape.scalars.filter { $0.1 == .int || $0.1 == .double }.map { prefix + $0.0 }
        let strings = shape.scalars.filter { $0.1 == .string }.map { prefix + $0.0 }
        if numbers.isEmpty || Int.random(in: 0..<3, using: &rng) == 0 {
            guard !strings.isEmpty else { return ("TRUEPREDICATE", []) }
            let op = pick(["==", "!=", "<", ">=", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "==[c]", "CONTAINS[cd]", "!=[d]", "LIKE[c]"])
            return ("\(pick(strings)) \(op) \(pick(strings))", [])
        }
        var arguments: [Any] = []
        let lhs = arithmetic(numbers, depth: 2, &arguments)
        let op = pick(["==", "!=", "<", "<=", ">", ">="])
        let rhs = arithmetic(numbers, depth: 1, &arguments)
        // Two constants are no comparison: a key on one side at least.
        let readsKey = numbers.contains { lhs.contains($0) || rhs.contains($0) }
        return (readsKey ? "\(lhs) \(op) \(rhs)" : "\(pick(numbers)) + \(lhs) \(op) \(rhs)", arguments)
    }

    private mutating func arithmetic(_ keys: [String], depth: Int, _ arguments: inout [Any]) -> String {
        switch Int.random(in: 0..<(depth > 0 ? 7 : 3), using: &rng) {
        case 0, 1: return pick(keys)
        case 2:
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: return pick(["0", "1", "-1", "2", "7", "2.5", "-0.5", "9223372036854775807", "nil"])
            case 1:
                arguments.append(pick([0, 1, -2, 3, Int.max, Int.min] as [Int]))
                return "%@"
            case 2:
                arguments.append(pick([0, 0.5, -1.5, 1e300]))
                return "%@"
            default: return pick(keys)
            }
        case 3: return "-(" + arithmetic(keys, depth: depth - 1, &arguments) + ")"
        case 4:
            let a = arithmetic(keys, depth: depth - 1, &arguments), b = arithmetic(keys, depth: depth - 1, &arguments)
            return "\(a) \(pick(["+", "-", "*", "/"])) \(b)"
        default:
            let a = arithmetic(keys, depth: depth - 1, &arguments), b = arithmetic(keys, depth: depth - 1, &arguments)
            return "(\(a) \(pick(["+", "-", "*", "/"])) \(b))"
        }
    }

    private mutating func someObjects(of entity: String) -> [Any] {
        let pool = objects[entity] ?? []
        guard !pool.isEmpty else { return [] }
        return (0..<Int.random(in: 0...3, using: &rng)).map { _ in
            let object = pick(pool)
            return Bool.random(using: &rng) ? object : object.objectID as Any
        }
    }

    /// A to-one (or, in a SUBQUERY, the element itself) compared with objects.
    private mutating func object(on entity: String, prefix: String) -> (String, [Any]) {
        guard let shape = Self.shapes[entity] else { return ("TRUEPREDICATE", []) }
        var candidates = shape.toOnes.map { (prefix + $0.0, $0.1) }
        if !prefix.isEmpty { candidates.append((String(prefix.dropLast()), entity)) }
        guard !candidates.isEmpty else { return scalar(on: entity, prefix: prefix) }
        let (key, destination) = pick(candidates)
        let pool = objects[destination] ?? []
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return ("\(key) \(pick(["==", "!="])) nil", [])
        case 1: return ("\(key) IN %@", [someObjects(of: destination)])
        default:
            guard !pool.isEmpty else { return ("\(key) == nil", []) }
            return ("\(key) \(pick(["==", "!="])) %@", [pick(pool)])
        }
    }

    /// `ANY/ALL/NONE collection.key op value`, sometimes through a second to-many (flattened).
    private mutating func quantified(on entity: String, prefix: String, depth: Int) -> (String, [Any]) {
        guard let shape = Self.shapes[entity], !shape.toManys.isEmpty else { return scalar(on: entity, prefix: prefix) }
        let (path, destination) = pick(shape.toManys)
        let quantifier = pick(["ANY", "SOME", "ALL", "NONE"])
        guard let inner = Self.shapes[destination] else { return scalar(on: entity, prefix: prefix) }
        if depth > 0, Int.random(in: 0..<4, using: &rng) == 0, let (next, nextDestination) = inner.toManys.first,
           let innermost = Self.shapes[nextDestination] {
            let (key, kind) = pick(innermost.scalars)
            return comparison("\(quantifier) \(prefix)\(path).\(next).\(key)", kind)
        }
        let (key, kind) = pick(inner.scalars)
        return comparison("\(quantifier) \(prefix)\(path).\(key)", kind)
    }

    private mutating func count(on entity: String, prefix: String) -> (String, [Any]) {
        guard let shape = Self.shapes[entity], !shape.toManys.isEmpty else { return scalar(on: entity, prefix: prefix) }
        let (path, _) = pick(shape.toManys)
        return ("\(prefix)\(path).@count \(pick(["==", "!=", "<", "<=", ">", ">="])) %@", [pick([0, 1, 2, 3])])
    }

    private mutating func aggregate(on entity: String, prefix: String) -> (String, [Any]) {
        guard let shape = Self.shapes[entity] else { return ("TRUEPREDICATE", []) }
        let candidates = shape.toManys.filter { !(Self.shapes[$0.1]?.numbers.isEmpty ?? true) }
        guard !candidates.isEmpty else { return count(on: entity, prefix: prefix) }
        let (path, destination) = pick(candidates)
        guard let inner = Self.shapes[destination] else { return count(on: entity, prefix: prefix) }
        let function = pick(["@sum", "@avg", "@min", "@max"])
        if (function == "@min" || function == "@max") && Bool.random(using: &rng) {
            return written("\(prefix)\(path).\(function).\(pick(inner.strings))", pick(["==", "<", ">="]), value(.string))
        }
        let number = Bool.random(using: &rng) ? value(.int) : value(.double)
        return written("\(prefix)\(path).\(function).\(pick(inner.numbers))", pick(["==", "!=", "<", "<=", ">", ">="]), number)
    }

    /// `collection CONTAINS %@`, `%@ IN collection`, `ANY collection IN %@`, `NONE collection IN %@`.
    private mutating func membership(on entity: String, prefix: String) -> (String, [Any]) {
        guard let shape = Self.shapes[entity], !shape.toManys.isEmpty else { return object(on: entity, prefix: prefix) }
        let (path, destination) = pick(shape.toManys)
        let pool = objects[destination] ?? []
        guard !pool.isEmpty else { return count(on: entity, prefix: prefix) }
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return ("\(prefix)\(path) CONTAINS %@", [pick(pool)])
        case 1: return ("%@ IN \(prefix)\(path)", [pick(pool).objectID])
        case 2: return ("ANY \(prefix)\(path) IN %@", [someObjects(of: destination)])
        default: return ("NONE \(prefix)\(path) IN %@", [someObjects(of: destination)])
        }
    }

    private mutating func subquery(on entity: String, prefix: String, depth: Int) -> (String, [Any]) {
        guard let shape = Self.shapes[entity], !shape.toManys.isEmpty else { return scalar(on: entity, prefix: prefix) }
        let (path, destination) = pick(shape.toManys)
        variables += 1
        let variable = "$v\(variables)"
        let (inner, arguments) = predicate(on: destination, prefix: variable + ".", depth: depth - 1)
        return ("SUBQUERY(\(prefix)\(path), \(variable), \(inner)).@count \(pick(["==", "!=", "<", ">", ">="])) %@",
                arguments + [pick([0, 1, 2])])
    }

    /// Random sorts, through to-ones too.
    mutating func sorts(on entity: String) -> [String] {
        guard let shape = Self.shapes[entity] else { return [] }
        return (0..<Int.random(in: 0...2, using: &rng)).map { _ in pick(shape.scalars).0 }
    }
}
