import Foundation

let usage = """
    usage: persistkit-bench [--quick] [--json PATH] [--only WORKLOAD[,WORKLOAD...]]
                            [--variant VARIANT[,VARIANT...]] [--rounds N]

      --quick          every workload at 10,000 objects, 3 measured rounds
      --json PATH      also write the results as JSON to PATH
      --only W         run only these workloads: \(Workload.allCases.map(\.rawValue).joined(separator: ", "))
      --variant V      run only these variants: \(Variant.allCases.map(\.rawValue).joined(separator: ", "))
      --rounds N       measured rounds (after one warm-up)
      --objects N      objects per workload instead of 100,000 (10,000 with --quick): to profile
                       one row at another size (controller-one-change at 1,000,000, say)
      --scale          also print the scale table: fetch, controller-one-change and insert at
                       10,000 / 100,000 / 1,000,000 objects (1,000 / 10,000 with --quick)
      --scale-only     print the scale table only
      --sync           also run the sync rows (push, pull, latency, 50 stores; needs PostgreSQL)
      --sync-only      run the sync rows only
      --profile-reference
                       for callgrind (--collect-atstart=no): count controller-catch-up's fresh
                       performFetch instead of its catch-up
    """

struct Options {
    var quick = false
    var jsonPath: String?
    var workloads = Workload.allCases
    var variants = Variant.allCases
    var rounds: Int?
    var objects: Int?
    var profileReference = false
    var scale = false
    var scaleOnly = false
    var child: String?
    var database: String?
    var sync = false
    var syncOnly = false
}

func parseOptions(_ arguments: [String]) throws -> Options {
    var options = Options()
    var iterator = arguments.makeIterator()
    func value(_ flag: String) throws -> String {
        guard let value = iterator.next() else { throw BenchError("\(flag) needs a value\n\n\(usage)") }
        return value
    }
    while let argument = iterator.next() {
        switch argument {
        case "--quick": options.quick = true
        case "--json": options.jsonPath = try value(argument)
        case "--only":
            options.workloads = try value(argument).split(separator: ",").map { name in
                guard let workload = Workload(rawValue: String(name)) else { throw BenchError("unknown workload \(name)\n\n\(usage)") }
                return workload
            }
        case "--variant":
            options.variants = try value(argument).split(separator: ",").map { name in
                guard let variant = Variant(rawValue: String(name)) else { throw BenchError("unknown variant \(name)\n\n\(usage)") }
                return variant
            }
        case "--rounds":
            guard let rounds = Int(try value(argument)), rounds >= 1 else { throw BenchError("--rounds needs a positive number") }
            options.rounds = rounds
        case "--objects":
            guard let objects = Int(try value(argument)), objects >= 1 else { throw BenchError("--objects needs a positive number") }
            options.objects = objects
        case "--profile-reference": options.profileReference = true
        case "--scale": options.scale = true
        case "--scale-only": options.scale = true; options.scaleOnly = true
        case "--sync": options.sync = true
        case "--sync-only": options.sync = true; options.syncOnly = true
        case "--child": options.child = try value(argument)
        case "--db": options.database = try value(argument)
        case "-h", "--help":
            print(usage)
            exit(0)
        default:
            throw BenchError("unknown argument \(argument)\n\n\(usage)")
        }
    }
    // Keep the canonical order whatever order they were named in.
    options.workloads = Workload.allCases.filter(options.workloads.contains)
    options.variants = Variant.allCases.filter(options.variants.contains)
    return options
}

func run() throws {
    let options = try parseOptions(Array(CommandLine.arguments.dropFirst()))

    if let child = options.child {
        if child == "make-iterate-store", let path = options.database {
            // For profiling the child (callgrind cannot follow this binary's own child processes).
            let config = options.quick ? Config.quick : Config.full
            try makeIterateStore(URL(fileURLWithPath: path), count: config.iterateCount, persistKit: options.variants == [.persistkit])
            return
        }
        guard child == "iterate", options.variants.count == 1, let path = options.database else {
            throw BenchError("--child iterate needs one --variant and --db")
        }
        try runIterateChild(variant: options.variants[0], url: URL(fileURLWithPath: path))
        return
    }

    if options.syncOnly {
        if let rows = runSyncBench(quick: options.quick) { print(syncTable(rows)) }
        return
    }

    var config = options.quick ? Config.quick : Config.full
    if let rounds = options.rounds { config.rounds = rounds }
    if let objects = options.objects { config.objectCount = objects }
    config.profileReference = options.profileReference
    let started = now()
    let env = try Environment(config: config)
    defer { env.directories.cleanup() }
    log("persistkit-bench: \(config.objectCount) objects, \(config.rounds) measured rounds after 1 warm-up; "
        + "variants \(options.variants.map(\.rawValue).joined(separator: ", "))")

    var rows: [ResultRow] = []
    for workload in options.workloads where !options.scaleOnly {
        let workloadStart = now()
        let row: ResultRow
        if workload == .iterate {
            row = try runIterate(env: env, variants: options.variants)
        } else if workload == .inList {
            row = try runInList(env: env, variants: options.variants)
        } else if workload == .migrate {
            row = try runMigrate(env: env, variants: options.variants)
        } else {
            var subjects: [Subject] = []
            for variant in options.variants {
                if let subject = try makeSubject(workload, variant, env: env) { subjects.append(subject) }
            }
            let n = workload == .readDuringWrite ? config.readDuringWriteCount
                : workload == .cacheReload ? CacheData.buckets * CacheData.contactsPerBucket : config.objectCount
            row = try measure(workload, n: n, subjects: subjects, rounds: config.rounds)
        }
        rows.append(row)
        let summary = Variant.allCases.compactMap { variant in
            row.milliseconds[variant].map { "\(variant.rawValue) \(formatMetric($0, of: workload))" }
        }.joined(separator: ", ")
        var relative = ""
        if let goal = Goal.of(workload), let ratio = goal.referenceRatio(row), let reference = row.referenceMilliseconds {
            relative = String(format: " = %.2fx", ratio) + " the reference \(formatNumber(reference)) ms (goal \(goal.text))"
        }
        log("  \(workload.rawValue): \(summary)\(relative)  [\(String(format: "%.1f", ms(workloadStart, now()) / 1000)) s]")
    }

    if !options.scaleOnly { print(markdownTable(rows, variants: options.variants)) }
    if options.scale {
        let scaleRows = try runScale(config: config, variants: options.variants, quick: options.quick)
        print(scaleTable(scaleRows, variants: options.variants))
        rows += scaleRows
    }
    if options.sync, let syncRows = runSyncBench(quick: options.quick) { print(syncTable(syncRows)) }
    if let path = options.jsonPath {
        try jsonReport(rows).write(toFile: path, atomically: true, encoding: .utf8)
    }
    log("total \(String(format: "%.1f", ms(started, now()) / 1000)) s")
}

do {
    try run()
} catch {
    log("persistkit-bench: \(error)")
    exit(1)
}
