import Foundation

/// A seeded generator (SplitMix64), so generated tests can be replayed from a printed seed.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The seed of a generated test: `PERSISTKIT_SEED` when set, else a fresh one. Printed up
/// front, so any failure (even a crash) can be replayed with the same seed.
public func testSeed(_ name: String) -> UInt64 {
    let seed: UInt64
    if let text = ProcessInfo.processInfo.environment["PERSISTKIT_SEED"], let given = UInt64(text) {
        seed = given
    } else {
        seed = UInt64.random(in: 1...UInt64.max / 2)
    }
    print("\(name) seed: \(seed) (set PERSISTKIT_SEED=\(seed) to replay)")
    return seed
}

/// Whether the tests run in CI (`CI=true`), where long generated and fault tests scale down.
public let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

/// `full` normally, `ci` under `CI=true`; printed with the test's name so the size is known.
public func testSize(_ name: String, full: Int, ci: Int) -> Int {
    let size = isCI ? ci : full
    print("\(name) size: \(size)\(isCI ? " (CI)" : "")")
    return size
}
