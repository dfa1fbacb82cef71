import CSQLiteBench
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Monotonic nanoseconds.
@inline(__always)
func now() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Milliseconds between two `now()` readings.
@inline(__always)
func ms(_ start: UInt64, _ end: UInt64) -> Double {
    Double(end &- start) / 1_000_000
}

/// Times `body`, in milliseconds. Only what runs inside is counted by
/// `valgrind --tool=callgrind --collect-atstart=no` (the measured region, not the setup).
@inline(__always)
func time(_ body: () throws -> Void) rethrows -> Double {
    bench_callgrind_toggle_collect()
    defer { bench_callgrind_toggle_collect() }
    let start = now()
    try body()
    return ms(start, now())
}

func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/// Peak resident set size of this process (`VmHWM`), in megabytes.
func peakResidentMegabytes() -> Double? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let digits = line.dropFirst("VmHWM:".count).filter { $0.isNumber }
        if let kB = Double(String(digits)) { return kB / 1024 }
    }
    return nil
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Stderr logging (stdout holds the table only).
func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// A fresh directory for one store; removed by `cleanup()`.
final class TemporaryDirectories {
    let root: URL
    private var counter = 0

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("persistkit-bench-\(getpid())-\(UInt32.random(in: 0 ... .max))", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    /// A new, empty directory's database file URL (the file does not exist yet).
    func newStoreURL(_ label: String) throws -> URL {
        counter += 1
        let directory = root.appendingPathComponent("\(counter)-\(label)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("store.sqlite")
    }

    /// Removes a store's directory (database, -wal and -shm files).
    func remove(_ url: URL) {
        try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
    }

    func cleanup() {
        try? FileManager.default.removeItem(at: root)
    }
}
