import Foundation

/// The goal the issues set for PersistKit on a workload (issue 5's, tightened by issue 13, which
/// also set the batch rows', `iterate-1m`'s and `cache-reload`'s, and by issue 26).
struct Goal {
    enum Kind {
        case ratioToRaw(Double), milliseconds(Double)
        /// `read-during-write`: the slowest fetch during the save, as a fraction of the save.
        case fractionBelow(Double)
        /// `parallel-read`: the throughput of four tasks at once over one task's.
        case speedupAtLeast(Double)
        /// At most this many times the row's reference (a fresh `performFetch()`).
        case ratioToReference(Double, name: String)
    }
    let kind: Kind

    static func of(_ workload: Workload) -> Goal? {
        switch workload {
        // Issue 26's goals (issue 13 set 1.5x for insert, prefetch, iterate, cache-reload and
        // 1.25x for fetch, fetch-predicate, update and batch-update).
        case .fetch, .fetchPredicate: return Goal(kind: .ratioToRaw(1.15))
        case .insert, .prefetch, .iterate: return Goal(kind: .ratioToRaw(1.3))
        case .update, .batchUpdate: return Goal(kind: .ratioToRaw(1.2))
        case .cacheReload: return Goal(kind: .ratioToRaw(1.4))
        case .count: return Goal(kind: .ratioToRaw(1.2))
        case .controllerOneChange: return Goal(kind: .milliseconds(1))
        case .controllerBatch: return Goal(kind: .milliseconds(20))
        case .controllerCatchUp: return Goal(kind: .ratioToReference(1.5, name: "fresh performFetch"))
        case .inList: return Goal(kind: .ratioToRaw(2))   // issue 30.4
        case .batchInsert: return Goal(kind: .ratioToRaw(1.5))
        case .batchDelete: return Goal(kind: .ratioToRaw(1.25))
        case .migrate: return nil
        case .relink: return nil   // issue 10 sets a goal for prefetch only
        case .linkAll: return nil  // issue 28 asks for a constant cost per link, which its test counts
        case .readDuringWrite: return Goal(kind: .fractionBelow(0.1))
        case .parallelRead: return Goal(kind: .speedupAtLeast(1.7))
        }
    }

    var text: String {
        switch kind {
        case .ratioToRaw(let ratio): return "≤ \(formatRatio(ratio))x raw"
        case .milliseconds(let limit): return "< \(formatNumber(limit)) ms"
        case .fractionBelow(let limit): return "< \(formatNumber(limit)) of the save"
        case .speedupAtLeast(let limit): return "≥ \(String(format: "%.1f", limit))x one task"
        case .ratioToReference(let ratio, let name): return "≤ \(String(format: "%.1f", ratio))x \(name)"
        }
    }

    /// PersistKit's time over the row's reference, for a goal relative to one.
    func referenceRatio(_ row: ResultRow) -> Double? {
        guard case .ratioToReference = kind, let persistKit = row.milliseconds[.persistkit],
              let reference = row.referenceMilliseconds, reference > 0 else { return nil }
        return persistKit / reference
    }

    /// The goal's cell: the goal, whether it is met, and for a relative goal the ratio measured.
    func cell(for row: ResultRow) -> String {
        var text = self.text
        switch isMet(by: row) {
        case true?: text += " ✓"
        case false?: text += " ✗ missed"
        case nil: break
        }
        if let ratio = referenceRatio(row) { text += String(format: " (%.2fx)", ratio) }
        return text
    }

    /// Whether `row` meets the goal; nil when PersistKit was not measured.
    func isMet(by row: ResultRow) -> Bool? {
        guard let persistKit = row.milliseconds[.persistkit] else { return nil }
        switch kind {
        case .ratioToRaw(let limit):
            guard let raw = row.milliseconds[.raw], raw > 0 else { return nil }
            return persistKit / raw <= limit
        case .milliseconds(let limit), .fractionBelow(let limit):
            return persistKit < limit
        case .speedupAtLeast(let limit):
            return persistKit >= limit
        case .ratioToReference(let limit, _):
            return referenceRatio(row).map { $0 <= limit }
        }
    }
}

/// A goal's ratio with one decimal, or two when it needs them (1.5, 1.25).
private func formatRatio(_ ratio: Double) -> String {
    (ratio * 10).rounded() == ratio * 10 ? String(format: "%.1f", ratio) : String(format: "%.2f", ratio)
}

/// `iterate-1m`'s goal for PersistKit's peak resident memory (issue 13's 64 MB, issue 26's 40).
let iteratePeakGoalMegabytes = 40.0

/// The goal for the memory one fetched PersistKit object costs (issue 26: under half of what it
/// cost when the issue was filed, about 680 bytes).
let fetchedObjectBytesGoal = 340.0

/// A row's value as its workload measures it: milliseconds, a fraction, or a speedup.
func formatMetric(_ value: Double, of workload: Workload) -> String {
    switch workload {
    case .readDuringWrite: return String(format: "%.3f", value)
    case .parallelRead: return String(format: "%.2fx", value)
    default: return formatNumber(value) + " ms"
    }
}

/// The concurrency workloads beside GRDB's `DatabasePool`: their own table, as their values
/// are ratios, not milliseconds.
private func concurrencyTable(_ rows: [ResultRow], variants: [Variant]) -> [String] {
    let shown = [Variant.persistkit, .grdb].filter(variants.contains)
    guard !rows.isEmpty, !shown.isEmpty else { return [] }
    let titles: [Variant: String] = [.persistkit: "PersistKit", .grdb: "GRDB DatabasePool"]
    let header = ["workload", "n", "what is measured"] + shown.compactMap { titles[$0] } + ["PersistKit goal"]
    var lines = ["", "Concurrency (medians of the rounds; ratios, not milliseconds):", "",
                 "| " + header.joined(separator: " | ") + " |",
                 "|" + header.indices.map { $0 < 3 ? " --- " : " ---: " }.joined(separator: "|") + "|"]
    for row in rows {
        let what = row.workload == .readDuringWrite
            ? "slowest fetch during the save / the save" : "4 tasks' fetch throughput / 1 task's"
        var cells = [row.workload.rawValue, String(row.n), what]
        cells += shown.map { variant in row.milliseconds[variant].map { formatMetric($0, of: row.workload) } ?? "n/a" }
        if let goal = Goal.of(row.workload) {
            switch goal.isMet(by: row) {
            case true?: cells.append(goal.text + " ✓")
            case false?: cells.append(goal.text + " ✗ missed")
            case nil: cells.append(goal.text)
            }
        }
        lines.append("| " + cells.joined(separator: " | ") + " |")
    }
    return lines
}

func formatNumber(_ value: Double) -> String {
    if value >= 100 { return String(format: "%.0f", value) }
    if value >= 10 { return String(format: "%.1f", value) }
    if value >= 1 { return String(format: "%.2f", value) }
    return String(format: "%.3f", value)
}

private func cell(_ value: Double?) -> String {
    value.map(formatNumber) ?? "n/a"
}

private func ratio(_ value: Double?, _ raw: Double?) -> String {
    guard let value, let raw, raw > 0 else { return "—" }
    return String(format: "%.2fx", value / raw)
}

/// The Markdown table of `rows`.
func markdownTable(_ rows: [ResultRow], variants: [Variant]) -> String {
    var lines: [String] = []
    let shown = Variant.allCases.filter { variants.contains($0) }
    var header = ["workload", "n"] + shown.map { "\($0.title) ms" }
    let ratioVariants = shown.filter { $0 != .raw }
    if shown.contains(.raw) { header += ratioVariants.map { "\($0.title) / raw" } }
    header.append("PersistKit goal")
    if rows.contains(where: { !$0.workload.isConcurrency }) {
        lines.append("| " + header.joined(separator: " | ") + " |")
        lines.append("|" + header.enumerated().map { $0.offset < 1 ? " --- " : " ---: " }.joined(separator: "|") + "|")
    }
    for row in rows where !row.workload.isConcurrency {
        var cells = [row.workload.rawValue, String(row.n)]
        cells += shown.map { cell(row.milliseconds[$0]) }
        if shown.contains(.raw) { cells += ratioVariants.map { ratio(row.milliseconds[$0], row.milliseconds[.raw]) } }
        if let goal = Goal.of(row.workload) {
            cells.append(goal.cell(for: row))
        } else {
            cells.append("—")
        }
        lines.append("| " + cells.joined(separator: " | ") + " |")
    }
    if let iterate = rows.first(where: { $0.workload == .iterate }) {
        lines.append("")
        lines.append("Peak memory (VmHWM of a child process iterating \(iterate.n) rows):")
        lines.append("")
        lines.append("| variant | peak MB | goal |")
        lines.append("| --- | ---: | ---: |")
        for variant in shown {
            let peak = iterate.peakMegabytes[variant]
            var goal = "—"
            if variant == .persistkit {
                goal = "≤ \(formatNumber(iteratePeakGoalMegabytes)) MB" + (peak.map { $0 <= iteratePeakGoalMegabytes ? " ✓" : " ✗ missed" } ?? "")
            }
            lines.append("| \(variant.title) | \(peak.map { String(format: "%.1f", $0) } ?? "n/a") | \(goal) |")
        }
    }
    if let fetch = rows.first(where: { $0.workload == .fetch }), shown.contains(where: { FetchMemory.bytesPerObject($0) != nil }) {
        lines.append("")
        lines.append("Memory per fetched object (`fetch` of \(fetch.n) objects: the allocator's bytes in use with the results held, less before, over the objects):")
        lines.append("")
        lines.append("| variant | bytes per object | goal |")
        lines.append("| --- | ---: | ---: |")
        for variant in shown {
            let bytes = FetchMemory.bytesPerObject(variant)
            var goal = "—"
            if variant == .persistkit {
                goal = "< \(formatNumber(fetchedObjectBytesGoal))" + (bytes.map { $0 < fetchedObjectBytesGoal ? " ✓" : " ✗ missed" } ?? "")
            }
            lines.append("| \(variant.title) | \(bytes.map { String(format: "%.0f", $0) } ?? "n/a") | \(goal) |")
        }
    }
    lines += concurrencyTable(rows.filter(\.workload.isConcurrency), variants: shown)
    return lines.joined(separator: "\n")
}

private func jsonNumber(_ value: Double?) -> String {
    guard let value, value.isFinite else { return "null" }
    return String(format: "%.4f", value)
}

/// The JSON array of `rows`: `{"workload", "n", "persistkit_ms", "raw_ms", "grdb_ms",
/// "grdb_records_ms"}`, for `iterate-1m` a `peak_mb` object keyed the same way, and for
/// `controller-catch-up` the `reference_ms` of the fresh `performFetch()` its goal compares with.
func jsonReport(_ rows: [ResultRow]) -> String {
    let objects = rows.map { row -> String in
        var fields = ["\"workload\": \"\(row.workload.rawValue)\"", "\"n\": \(row.n)"]
        if row.workload.isConcurrency {
            // The *_ms fields hold this workload's ratio (see `unit`), not milliseconds.
            fields.append("\"unit\": \"\(row.workload == .readDuringWrite ? "fraction-of-save" : "speedup")\"")
        }
        for variant in Variant.allCases {
            fields.append("\"\(variant.jsonKey)_ms\": \(jsonNumber(row.milliseconds[variant]))")
        }
        if let reference = row.referenceMilliseconds {
            fields.append("\"reference_ms\": \(jsonNumber(reference))")
        }
        if row.workload == .iterate {
            let peaks = Variant.allCases.map { "\"\($0.jsonKey)\": \(jsonNumber(row.peakMegabytes[$0]))" }
            fields.append("\"peak_mb\": {" + peaks.joined(separator: ", ") + "}")
        }
        return "  {" + fields.joined(separator: ", ") + "}"
    }
    return "[\n" + objects.joined(separator: ",\n") + "\n]\n"
}
