import Foundation
import FuzzSupport
import PersistKit

/// Fuzzes the predicate format parser and resolver: the input's first byte picks the
/// arguments, the rest is the format. A format that parses must fetch the same items from SQL
/// as from memory (or fail alike); one that does not must fail with a PersistError carrying
/// the position of the problem.
// libFuzzer calls the target on one thread only: nothing else touches the dataset.
nonisolated(unsafe) private let dataset: FuzzDataset = {
    do { return try FuzzDataset() } catch { fuzzFinding("cannot make the dataset: \(error)") }
}()

/// How many argument lists ``arguments(_:)`` has.
private let argumentListCount = 10

/// The argument lists a format's `%@`, `%K`, `%d`... may take (made on demand: `[Any]` is not
/// Sendable, so it cannot be a global constant).
private func arguments(_ index: Int) -> [Any] {
    switch index {
    case 0: return []
    case 1: return ["a"]
    case 2: return ["name", "milk"]
    case 3: return [1, 2, 3]
    case 4: return [[1, 2, 42] as [Int], "café"]
    case 5: return [1.5, Date(timeIntervalSinceReferenceDate: 0)]
    case 6: return ["count", 7, "note", NSNull()]
    case 7: return [["red", "blue"] as [String], 2]
    case 8: return [Array(0..<3000) as [Int]]
    default: return [Optional<String>.none as Any, "x*"]
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func predicateFormatTarget(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var choices = FuzzChoices(fuzzBytes(data, count))
    let arguments = arguments(choices.pick(argumentListCount))
    let format = String(decoding: choices.rest(), as: UTF8.self)
    let predicate: FetchPredicate<FZItem>
    do {
        predicate = try FetchPredicate<FZItem>(format: format, argumentArray: arguments)
    } catch let error as PersistError {
        // Every format-string error names where it is (issue 30 item 6).
        if error.code != .invalidPredicate || error.position == nil {
            fuzzFinding("a format error without a position, or not .invalidPredicate: \(error.code) \(error.message)")
        }
        return 0
    } catch {
        fuzzFinding("not a PersistError: \(error) for \(format.debugDescription)")
    }
    var request = FetchRequest<FZItem>(predicate: predicate)
    dataset.compare(request, "format \(format.debugDescription) with \(arguments.count) arguments")
    request.fetchLimit = 3
    request.sortDescriptors = [FetchSortDescriptor(\.seq)]
    dataset.compare(request, "format \(format.debugDescription), limit 3")
    return 0
}

@_cdecl("fuzz_predicate_format_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    _ = dataset   // made before the first input, so that it is not timed as one
    return runFuzzer(argc, argv) { predicateFormatTarget($0, $1) }
}
