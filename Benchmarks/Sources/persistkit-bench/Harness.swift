import Foundation
import PersistKit

enum Variant: String, CaseIterable {
    case persistkit
    case raw
    case grdb
    case grdbRecords = "grdb-records"

    var title: String {
        switch self {
        case .persistkit: return "PersistKit"
        case .raw: return "raw SQLite"
        case .grdb: return "GRDB (fastest)"
        case .grdbRecords: return "GRDB records"
        }
    }

    var jsonKey: String {
        switch self {
        case .persistkit: return "persistkit"
        case .raw: return "raw"
        case .grdb: return "grdb"
        case .grdbRecords: return "grdb_records"
        }
    }
}

enum Workload: String, CaseIterable {
    case insert
    case fetch
    case fetchPredicate = "fetch-predicate"
    case update
    case count
    case prefetch
    case relink
    case linkAll = "link-all"
    case batchInsert = "batch-insert"
    case batchUpdate = "batch-update"
    case batchDelete = "batch-delete"
    case cacheReload = "cache-reload"
    case controllerOneChange = "controller-one-change"
    case controllerBatch = "controller-1000-changes"
    case controllerCatchUp = "controller-catch-up"
    case iterate = "iterate-1m"
    case inList = "in-50k"
    case migrate = "migrate-1m"
    case readDuringWrite = "read-during-write"
    case parallelRead = "parallel-read"

    /// Whether a round's samples are a ratio this workload computes (a fraction of a save, a
    /// speedup), not milliseconds: such rows go in the concurrency table.
    var isConcurrency: Bool { self == .readDuringWrite || self == .parallelRead }
}

/// Sizes and repetitions of one run.
struct Config {
    /// Objects in the store for every workload but `iterate-1m`.
    var objectCount: Int
    /// Rows iterated by `iterate-1m`.
    var iterateCount: Int
    /// Rows of the store `migrate-1m` migrates.
    var migrateCount: Int
    /// Measured rounds (after one warm-up round).
    var rounds: Int
    /// Objects changed by `update`.
    var updateCount: Int
    /// Objects changed in one batch by `controller-1000-changes`.
    var batchChanges: Int
    /// Single changes measured per round by `controller-one-change`, for PersistKit (each is
    /// cheap) and for GRDB (each is a full refetch).
    var oneChangesPerRoundPersistKit: Int
    var oneChangesPerRoundGRDB: Int
    /// Objects the save of `read-during-write` inserts.
    var readDuringWriteCount: Int
    /// Whether `controller-one-change` also logs its `performFetch()` beside a plain fetch
    /// (off in the scale runs: ten fetches of a million objects).
    var comparesPerformFetch = true
    /// For `controller-catch-up`: mark the fresh `performFetch()` it is compared with as the
    /// region callgrind counts, instead of the catch-up (`--profile-reference`).
    var profileReference = false

    static let full = Config(objectCount: 100_000, iterateCount: 1_000_000, migrateCount: 1_000_000, rounds: 5, updateCount: 1_000,
                             batchChanges: 1_000, oneChangesPerRoundPersistKit: 200, oneChangesPerRoundGRDB: 3,
                             readDuringWriteCount: 150_000)
    static let quick = Config(objectCount: 10_000, iterateCount: 10_000, migrateCount: 10_000, rounds: 3, updateCount: 1_000,
                              batchChanges: 1_000, oneChangesPerRoundPersistKit: 50, oneChangesPerRoundGRDB: 3,
                              readDuringWriteCount: 15_000)
}

/// One variant of one workload, set up and ready to run rounds.
final class Subject {
    let variant: Variant
    /// Runs round `index` (0 is the warm-up): returns the round's samples in milliseconds (one
    /// per round, or one per change for `controller-one-change`) and a check value that every
    /// variant must agree on (empty: not compared).
    let round: (Int) throws -> (samples: [Double], check: String)
    /// Releases the variant's stores.
    let teardown: () -> Void
    /// The median time the workload's goal compares with (`controller-catch-up`: a fresh
    /// `performFetch()` of the same request), known once the rounds ran; nil for most.
    let reference: () -> Double?

    init(_ variant: Variant, round: @escaping (Int) throws -> (samples: [Double], check: String),
         teardown: @escaping () -> Void = {}, reference: @escaping () -> Double? = { nil }) {
        self.variant = variant
        self.round = round
        self.teardown = teardown
        self.reference = reference
    }
}

/// One row of the results.
struct ResultRow {
    let workload: Workload
    let n: Int
    var milliseconds: [Variant: Double] = [:]
    var peakMegabytes: [Variant: Double] = [:]
    var samples: [Variant: Int] = [:]
    var mismatch: String?
    /// PersistKit's reference time for a goal relative to another operation (see `Subject`).
    var referenceMilliseconds: Double?
}

/// Everything the workloads share: the data, the model, the temporary directory.
final class Environment {
    let config: Config
    let tasks: [TaskData]
    let directories: TemporaryDirectories
    let model: ManagedObjectModel

    init(config: Config) throws {
        self.config = config
        tasks = DataSet.tasks(count: config.objectCount)
        directories = try TemporaryDirectories()
        model = try PersistKitBench.makeModel()
    }

    /// The primary keys `update` changes: spread evenly over the table (1-based, as SQLite
    /// assigns them).
    var updateIDs: [Int64] {
        let step = max(1, config.objectCount / config.updateCount)
        return (0..<min(config.updateCount, config.objectCount)).map { Int64(1 + $0 * step) }
    }

    /// The new values `update` round `round` gives its `i`th object.
    static func updatedValues(round: Int, index i: Int) -> (due: Double, isComplete: Bool) {
        (DataSet.dueBase + Double(round * 7_919 + i), (round + i) % 2 == 0)
    }
}

/// Runs every subject's rounds interleaved (A B C D A B C D ...): round 0 is the warm-up.
func measure(_ workload: Workload, n: Int, subjects: [Subject], rounds: Int) throws -> ResultRow {
    var row = ResultRow(workload: workload, n: n)
    var samples: [Variant: [Double]] = [:]
    for index in 0...rounds {
        var checks: [(Variant, String)] = []
        for subject in subjects {
            let result = try subject.round(index)
            if index > 0 { samples[subject.variant, default: []].append(contentsOf: result.samples) }
            if !result.check.isEmpty { checks.append((subject.variant, result.check)) }
        }
        if let first = checks.first, checks.contains(where: { $0.1 != first.1 }), row.mismatch == nil {
            row.mismatch = checks.map { "\($0.0.rawValue)=\($0.1)" }.joined(separator: ", ")
            log("warning: \(workload.rawValue) variants disagree in round \(index): \(row.mismatch!)")
        }
    }
    for subject in subjects {
        if subject.variant == .persistkit { row.referenceMilliseconds = subject.reference() }
        subject.teardown()
        let values = samples[subject.variant] ?? []
        row.milliseconds[subject.variant] = median(values)
        row.samples[subject.variant] = values.count
    }
    return row
}
