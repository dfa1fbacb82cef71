import Foundation

// The scale table (`--scale`): `fetch`, `controller-one-change` and `insert` at 10,000, 100,000
// and 1,000,000 objects (1,000 and 10,000 with `--quick`), so that growth shows: a fetch is
// O(n), one change delivered by a controller O(log n). GRDB records is left out (its inserts of
// a million rows take most of a minute a round and say nothing new).

enum Scale {
    static let workloads: [Workload] = [.fetch, .controllerOneChange, .insert]

    static func sizes(quick: Bool) -> [Int] { quick ? [1_000, 10_000] : [10_000, 100_000, 1_000_000] }

    /// Measured rounds at `n` objects: at most 3 at a million.
    static func rounds(_ config: Config, n: Int) -> Int { n >= 1_000_000 ? min(config.rounds, 3) : config.rounds }

    /// The most PersistKit's time may grow from the second-largest size to the largest (issue 26:
    /// 100,000 to 1,000,000 objects): one change delivered by a controller is O(log n) work, so
    /// its time should barely move. Nil: no goal (O(n) rows).
    static func growthGoal(_ workload: Workload) -> Double? { workload == .controllerOneChange ? 1.5 : nil }
}

/// Runs the scale workloads at every size, one data set per size.
func runScale(config: Config, variants: [Variant], quick: Bool) throws -> [ResultRow] {
    let shown = variants.filter { $0 != .grdbRecords }
    var rows: [ResultRow] = []
    for n in Scale.sizes(quick: quick) {
        var sized = config
        sized.objectCount = n
        sized.rounds = Scale.rounds(config, n: n)
        sized.comparesPerformFetch = false
        let env = try Environment(config: sized)
        defer { env.directories.cleanup() }
        for workload in Scale.workloads {
            let started = now()
            var subjects: [Subject] = []
            for variant in shown {
                if let subject = try makeSubject(workload, variant, env: env) { subjects.append(subject) }
            }
            let row = try measure(workload, n: n, subjects: subjects, rounds: sized.rounds)
            rows.append(row)
            let summary = shown.compactMap { variant in row.milliseconds[variant].map { "\(variant.rawValue) \(formatNumber($0)) ms" } }
            log("  scale \(workload.rawValue) n=\(n): \(summary.joined(separator: ", "))  [\(String(format: "%.1f", ms(started, now()) / 1000)) s]")
        }
    }
    return rows
}

/// The Markdown table of the scale rows: each workload's sizes in order, with PersistKit's
/// time over its time at the size before (10 times fewer objects): about 10x for O(n) work,
/// about 1x for O(log n).
func scaleTable(_ rows: [ResultRow], variants: [Variant]) -> String {
    let shown = variants.filter { $0 != .grdbRecords }
    var header = ["workload", "n"] + shown.map { "\($0.title) ms" }
    if shown.contains(.raw) && shown.contains(.persistkit) { header.append("PersistKit / raw") }
    header.append("PersistKit growth (10x objects)")
    header.append("growth goal")
    var lines = ["", "Scale (medians; the growth column is PersistKit's time over its time at a tenth of the objects):", "",
                 "| " + header.joined(separator: " | ") + " |",
                 "|" + header.indices.map { $0 < 1 ? " --- " : " ---: " }.joined(separator: "|") + "|"]
    for workload in Scale.workloads {
        var previous: Double?
        let largest = rows.filter { $0.workload == workload }.map(\.n).max()
        for row in rows where row.workload == workload {
            var cells = [workload.rawValue, String(row.n)]
            cells += shown.map { variant in row.milliseconds[variant].map(formatNumber) ?? "n/a" }
            let persistKit = row.milliseconds[.persistkit]
            if shown.contains(.raw) && shown.contains(.persistkit) {
                if let persistKit, let raw = row.milliseconds[.raw], raw > 0 {
                    cells.append(String(format: "%.2fx", persistKit / raw))
                } else {
                    cells.append("—")
                }
            }
            if let persistKit, let previous, previous > 0 {
                let growth = persistKit / previous
                cells.append(String(format: "%.2fx", growth))
                let goal = row.n == largest ? Scale.growthGoal(workload) : nil
                cells.append(goal.map { String(format: "≤ %.1fx", $0) + (growth <= $0 ? " ✓" : " ✗ missed") } ?? "—")
            } else {
                cells.append("—")
                cells.append("—")
            }
            previous = persistKit
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
    }
    return lines.joined(separator: "\n")
}
