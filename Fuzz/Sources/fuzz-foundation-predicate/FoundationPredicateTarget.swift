import Foundation
import FuzzSupport
import PersistKit

/// Fuzzes the `#Predicate` translator with the shapes `#Predicate` builds, chosen by the
/// input: the translation must fetch the same items from SQL as from memory, and, where
/// Foundation evaluates the tree as PersistKit does, the items Foundation's own `evaluate`
/// accepts. A tree the translator refuses must be refused with a PersistError.
// libFuzzer calls the target on one thread only: nothing else touches the dataset.
nonisolated(unsafe) private let dataset: FuzzDataset = {
    do { return try FuzzDataset() } catch { fuzzFinding("cannot make the dataset: \(error)") }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func foundationPredicateTarget(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var choices = FuzzChoices(fuzzBytes(data, count))
    let depth = choices.pick(6)
    var comparable = true
    let foundation = Foundation.Predicate<FZItem> { item in
        var builder = FoundationPredicateBuilder(choices: choices, item: item)
        let tree = builder.condition(depth)
        comparable = builder.foundationComparable
        return tree
    }
    let translated = FetchPredicate(foundation)
    let request = FetchRequest<FZItem>(predicate: translated)
    guard let fetched = dataset.compare(request, "\(foundation)") else { return 0 }
    if comparable {
        let evaluated = dataset.pendingItems.filter { (try? foundation.evaluate($0)) == true }.map(\.seq).sorted()
        if evaluated != fetched { fuzzFinding("Foundation's evaluate \(evaluated), PersistKit \(fetched) for \(foundation)") }
    }
    return 0
}

@_cdecl("fuzz_foundation_predicate_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    _ = dataset   // made before the first input, so that it is not timed as one
    return runFuzzer(argc, argv) { foundationPredicateTarget($0, $1) }
}
