import Foundation
import FuzzSupport
import PersistKit

/// Fuzzes opening and using a damaged store file: the input is the file (the corpus starts
/// from a small valid store, which `FUZZ_WRITE_SEED=path` writes). Opening, reading every
/// object and its relationships, counting, a predicate fetch, a save and the history, and reading
/// objects whose context is gone, must each work or throw a PersistError; nothing may crash.
private let model: ManagedObjectModel = {
    do { return try ManagedObjectModel(entities: [FZItem.self, FZGroup.self, FZLabel.self]) } catch { fuzzFinding("model: \(error)") }
}()
private let file = fuzzDirectory.appendingPathComponent("store.sqlite")

@_cdecl("LLVMFuzzerTestOneInput")
public func storeFileTarget(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
    guard (try? Data(fuzzBytes(data, count)).write(to: file)) != nil else { return 0 }
    do {
        let container = try PersistentContainer(model: model, store: .sqlite(file, synchronous: .off))
        try readAfterTheirContext(container)
        try use(container)
    } catch is PersistError {
    } catch {
        fuzzFinding("not a PersistError: \(error)")
    }
    return 0
}

private func use(_ container: PersistentContainer) throws {
    let context = container.newContext()
    let items = try context.fetch(FetchRequest<FZItem>(sortBy: [FetchSortDescriptor(\.seq)]))
    for item in items.prefix(50) {
        _ = (item.name, item.note, item.ratio, item.day, item.group?.title, item.labels.map(\.text))
    }
    _ = try context.fetch(FetchRequest<FZGroup>()).map { $0.items.count }
    _ = try context.count(for: FetchRequest<FZItem>(predicate: try .init(format: "ANY labels.text == 'red' OR name CONTAINS[c] 'a'")))
    items.first?.name = "changed"
    items.last?.labels = []
    let added = FZItem(context: context)
    added.seq = -1
    added.name = "added"
    try context.save()
    _ = try container.history(after: nil)
}

/// A fresh context's fetch registers its rows without looking their keys up, and a freed
/// context hands the objects still held to a successor: the path where a damaged table's
/// repeated primary key once left the identity map pointing at freed objects.
private func readAfterTheirContext(_ container: PersistentContainer) throws {
    let held: [FZItem] = try {
        let context = container.newContext()
        return try context.fetch(FetchRequest<FZItem>())
    }()
    for item in held.prefix(50) {
        _ = (item.name, item.group?.title, item.labels.count)
    }
}

/// `FUZZ_WRITE_SEED=path`: writes a small valid store there and exits (the corpus's seed).
private func writeSeedIfAsked() {
    guard let path = ProcessInfo.processInfo.environment["FUZZ_WRITE_SEED"] else { return }
    do {
        let url = URL(fileURLWithPath: path)
        let container = try PersistentContainer(model: model, store: .sqlite(url, synchronous: .full))
        let context = container.newContext()
        let group = FZGroup(context: context)
        group.title = "home"
        let label = FZLabel(context: context)
        label.text = "red"
        for seq in 0..<12 {
            let item = FZItem(context: context)
            item.seq = seq
            item.name = FuzzDataset.names[seq % FuzzDataset.names.count]
            item.note = seq % 2 == 0 ? nil : "note \(seq)"
            item.count = seq * 3
            item.flag = seq % 2 == 1
            item.ratio = seq % 3 == 0 ? nil : Double(seq) / 4
            item.day = FuzzDataset.days[seq % FuzzDataset.days.count]
            item.group = seq % 3 == 0 ? nil : group
            item.labels = seq % 2 == 0 ? [label] : []
        }
        try context.save()
        exit(0)
    } catch {
        fuzzFinding("cannot write the seed: \(error)")
    }
}

@_cdecl("fuzz_store_file_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    writeSeedIfAsked()
    return runFuzzer(argc, argv) { storeFileTarget($0, $1) }
}
