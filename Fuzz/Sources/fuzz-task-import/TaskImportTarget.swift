import Foundation
import FuzzSupport
import PersistKit
import TaskModel

/// Fuzzes `tasks import` documents through the steps `tasks import` takes: `TaskDocument(data:)`,
/// `validate()`, then `TaskStore.importDocument(_:duplicates:)`. Any bytes are either refused
/// with a PersistError, leaving the store as it was, or imported; an imported document exports,
/// and the export imports into a new store and exports again as the same document. Nothing may
/// crash. `FUZZ_WRITE_SEED=path` writes an exported document there (the corpus's seed).
private let model: ManagedObjectModel = {
    do { return try TaskStore.makeModel() } catch { fuzzFinding("model: \(error)") }
}()

private func freshStore() -> TaskStore {
    do {
        return try TaskStore(container: PersistentContainer(model: model, store: .inMemory),
                             clock: { Date(timeIntervalSinceReferenceDate: 800_000_000) })
    } catch {
        fuzzFinding("cannot make an empty task store: \(error)")
    }
}

/// The empty store inputs are imported into; replaced after an import that succeeds (a refused
/// one leaves it empty, which each run checks). libFuzzer calls the target on one thread only.
nonisolated(unsafe) private var emptyStore = freshStore()

@_cdecl("LLVMFuzzerTestOneInput")
public func taskImportTarget(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Data(fuzzBytes(data, count))
    let duplicates: DuplicatePolicy = bytes.count % 2 == 0 ? .skip : .keep
    let store = emptyStore
    do {
        let document = try TaskDocument(data: bytes)
        try document.validate()
        try store.importDocument(document, duplicates: duplicates)
    } catch let error as PersistError {
        expectEmpty(store, after: error)
        return 0
    } catch {
        fuzzFinding("not a PersistError: \(error)")
    }
    emptyStore = freshStore()
    do {
        // Imported: it exports, and the export restores a new store that exports the same.
        let exported = try store.exportDocument()
        let restored = freshStore()
        try restored.importDocument(exported)
        let again = try restored.exportDocument()
        if try TaskDocument(data: exported) != TaskDocument(data: again) {
            fuzzFinding("an export restored and exported again differs:\n\(String(decoding: exported, as: UTF8.self))\n--\n\(String(decoding: again, as: UTF8.self))")
        }
    } catch {
        fuzzFinding("an imported document does not export and restore: \(error)")
    }
    return 0
}

/// A refused import changes nothing.
private func expectEmpty(_ store: TaskStore, after error: PersistError) {
    do {
        let left = (try store.count(), try store.projects().count, try store.tags().count)
        if left != (0, 0, 0) {
            fuzzFinding("a refused import (\(error.message)) left \(left.0) tasks, \(left.1) projects, \(left.2) tags")
        }
    } catch {
        fuzzFinding("the store cannot be read after a refused import: \(error)")
    }
}

private func writeSeedIfAsked() {
    guard let path = ProcessInfo.processInfo.environment["FUZZ_WRITE_SEED"] else { return }
    do {
        let store = try TaskStore(container: PersistentContainer(model: model, store: .inMemory), stagesSampleData: true)
        try store.exportDocument().write(to: URL(fileURLWithPath: path))
        exit(0)
    } catch {
        fuzzFinding("cannot write the seed: \(error)")
    }
}

@_cdecl("fuzz_task_import_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    writeSeedIfAsked()
    return runFuzzer(argc, argv) { taskImportTarget($0, $1) }
}
