import Foundation
import PersistKit

/// The same items twice: saved in an SQLite store (so a fetch runs the predicate in SQL) and
/// pending in an unsaved context (so a fetch evaluates it in memory). The two must agree on
/// every predicate; disagreeing, or failing other than with a PersistError, is a finding.
public final class FuzzDataset {
    public let saved: ManagedObjectContext
    public let pending: ManagedObjectContext
    /// The pending context's items, by `seq`.
    public let pendingItems: [FZItem]

    public static let names = ["", "a", "A", "ab", "abc", "ABC", "milk", "Milk", "oat milk", "café", "cafe\u{301}", "CAFÉ",
                               "straße", "STRASSE", "İstanbul", "ı", "x*y", "a?c", "100%", "line\nbreak", "😀 smile",
                               "nul\u{0}byte", " lead", "tail ", "Ω", "\u{2126}"]
    public static let counts = [-1000, -42, -1, 0, 1, 2, 7, 42, 1000, Int.max, Int.min]
    public static let ratios: [Double?] = [nil, 0, -0.0, 1.5, -1.5, 0.1, 42, .infinity, -.infinity, 1e300]
    public static let days: [Date?] = [nil, Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: 86_400.5),
                                       Date(timeIntervalSince1970: 0), Date(timeIntervalSinceReferenceDate: -1e9)]
    public static let titles = ["home", "work", "Home"]
    public static let texts = ["red", "blue", "Red", "blüe"]

    public init() throws {
        let model = try ManagedObjectModel(entities: [FZItem.self, FZGroup.self, FZLabel.self])
        let file = fuzzDirectory.appendingPathComponent("dataset-\(UUID().uuidString).sqlite")
        saved = try PersistentContainer(model: model, store: .sqlite(file, synchronous: .off)).newContext()
        pending = try PersistentContainer(model: model, store: .inMemory).newContext()
        try Self.fill(saved)
        try saved.save()
        pendingItems = try Self.fill(pending)
    }

    /// 40 items over the value pools, in 3 groups (and none), with 0 to 3 of 4 labels.
    @discardableResult
    private static func fill(_ context: ManagedObjectContext) throws -> [FZItem] {
        let groups = titles.map { title in
            let group = FZGroup(context: context)
            group.title = title
            return group
        }
        let labels = texts.map { text in
            let label = FZLabel(context: context)
            label.text = text
            return label
        }
        return (0..<40).map { seq in
            let item = FZItem(context: context)
            item.seq = seq
            item.name = names[seq % names.count]
            item.note = seq % 3 == 0 ? nil : names[(seq * 7 + 3) % names.count]
            item.count = counts[(seq * 5) % counts.count]
            item.ratio = ratios[(seq * 3) % ratios.count]
            item.flag = seq % 2 == 0
            item.day = days[(seq * 11) % days.count]
            item.group = seq % 4 == 3 ? nil : groups[seq % groups.count]
            item.labels = Set(labels.enumerated().filter { (seq >> $0.offset) & 1 == 1 && $0.offset < 3 || seq % 7 == $0.offset }.map(\.element))
            return item
        }
    }

    /// The `seq`s a request fetches from SQL and from memory, and SQL's count; a finding when
    /// they disagree, or when either fails other than with a PersistError, or when one fails
    /// and the other does not.
    @discardableResult
    public func compare(_ request: FetchRequest<FZItem>, _ description: @autoclosure () -> String) -> [Int]? {
        let fromSQL = Result { try saved.fetch(request).map(\.seq).sorted() }
        let fromMemory = Result { try pending.fetch(request).map(\.seq).sorted() }
        let count = Result { try saved.count(for: request) }
        for result in [fromSQL.map { _ in () }, fromMemory.map { _ in () }, count.map { _ in () }] {
            if case .failure(let error) = result, !(error is PersistError) {
                fuzzFinding("not a PersistError: \(error) for \(description())")
            }
        }
        switch (fromSQL, fromMemory, count) {
        case (.success(let sql), .success(let memory), .success(let counted)):
            if sql != memory || counted != sql.count {
                fuzzFinding("SQL \(sql) (count \(counted)) and memory \(memory) disagree for \(description())")
            }
            return sql
        case (.failure(let sqlError), .failure(let memoryError), _):
            let (a, b) = (sqlError as? PersistError, memoryError as? PersistError)
            if a?.code != b?.code { fuzzFinding("SQL failed with \(String(describing: a)), memory with \(String(describing: b)) for \(description())") }
            return nil
        default:
            fuzzFinding("only one side failed: SQL \(fromSQL), memory \(fromMemory), count \(count) for \(description())")
        }
    }
}
