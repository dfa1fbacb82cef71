import PersistKitTestSupport
import Foundation
@testable import PersistKit

/// The values generated `Sample`s draw from.
struct SamplePools {
    var strings: [String]
    var ints: [Int]
    var reals: [Double]
    var dates: [Date]

    /// PredicateEquivalenceTests' pools: Unicode edge cases, extreme numbers, infinities.
    static var standard: SamplePools {
        SamplePools(strings: PredicateEquivalenceTests.strings, ints: PredicateEquivalenceTests.ints,
                    reals: PredicateEquivalenceTests.reals, dates: PredicateEquivalenceTests.dates)
    }
}

/// Fills `context` with `count` `Sample`s (PredicateEquivalenceTests' entity) drawn from `pools`,
/// nils included; the same generator state gives the same values. Shared by the predicate
/// equivalence tests.
func makeSamples(_ context: ManagedObjectContext, count: Int, using rng: inout SeededGenerator,
                 pools: SamplePools = .standard) {
    for seq in 0..<count {
        let sample = Sample(context: context)
        sample.seq = seq
        sample.name = pools.strings.randomElement(using: &rng) ?? ""
        sample.note = Bool.random(using: &rng) ? nil : pools.strings.randomElement(using: &rng)
        sample.int = pools.ints.randomElement(using: &rng) ?? 0
        sample.optionalInt = Bool.random(using: &rng) ? nil : pools.ints.randomElement(using: &rng)
        sample.real = pools.reals.randomElement(using: &rng) ?? 0
        sample.optionalReal = Bool.random(using: &rng) ? nil : pools.reals.randomElement(using: &rng)
        sample.date = Int.random(in: 0..<5, using: &rng) == 0 ? nil : pools.dates.randomElement(using: &rng)
        sample.flag = Bool.random(using: &rng)
        sample.optionalFlag = Int.random(in: 0..<3, using: &rng) == 0 ? nil : Bool.random(using: &rng)
        sample.priority = Int.random(in: 0..<4, using: &rng) == 0 ? nil : Priority.allCases.randomElement(using: &rng)
        sample.blob = Bool.random(using: &rng) ? nil : Data([UInt8](repeating: UInt8.random(in: 0...3, using: &rng), count: Int.random(in: 0...2, using: &rng)))
    }
}

/// The generated-equivalence fixture: the same 240 samples saved in an SQLite store and
/// pending (unsaved) in an in-memory one, from the same generator state.
func makeSavedAndPendingSamples(in directory: TemporaryDirectory, using rng: inout SeededGenerator) throws
    -> (saved: ManagedObjectContext, pending: ManagedObjectContext, model: ManagedObjectModel) {
    let model = try ManagedObjectModel(entities: [Sample.self])
    let saved = try PersistentContainer(model: model, store: .sqlite(directory.file("saved.sqlite"))).newContext()
    let pending = try PersistentContainer(model: model, store: .inMemory).newContext()
    var generation = rng
    makeSamples(saved, count: 240, using: &generation)
    try saved.save()
    makeSamples(pending, count: 240, using: &rng)   // the same values, from the same generator state
    return (saved, pending, model)
}
