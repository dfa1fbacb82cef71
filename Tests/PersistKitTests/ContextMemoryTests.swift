import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit
#if canImport(Glibc)
import Glibc
#endif

/// The context holds objects without changes weakly: the memory of a context that fetched
/// 100,000 objects and dropped them returns to near where it started.
final class ContextMemoryTests: XCTestCase {
    func testDroppedFetchGivesItsMemoryBack() throws {
        try checkDroppedFetch("testDroppedFetchGivesItsMemoryBack", prefetching: [])
    }

    /// Prefetched projects are held by their tasks only: they go with them.
    func testDroppedPrefetchingFetchGivesItsMemoryBack() throws {
        try checkDroppedFetch("testDroppedPrefetchingFetchGivesItsMemoryBack", prefetching: ["project"])
    }

    /// Fetches every task (one project for a hundred tasks), drops them, and checks that the
    /// memory malloc hands out and the resident memory come back to where they started.
    private func checkDroppedFetch(_ name: String, prefetching keyPaths: [String]) throws {
        #if canImport(Glibc)
        let count = testSize("ContextMemoryTests.\(name) objects", full: 100_000, ci: 20_000)
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        do {
            let context = container.newContext()
            let projects = (0..<count / 100).map { index in
                let project = GProject(context: context)
                project.name = "p\(index)"
                return project
            }
            for index in 0..<count {
                let task = GTask(context: context)
                task.title = "t\(index)"
                task.project = projects[index % projects.count]
            }
            try context.save()
        }
        let context = container.newContext()
        var request = FetchRequest<GTask>(sortBy: [FetchSortDescriptor(\.title)])
        request.relationshipKeyPathsForPrefetching = keyPaths
        // Warm-up: the statements and the context's tables exist before the measurement starts.
        request.fetchLimit = 10
        _ = try context.fetch(request)
        request.fetchLimit = 0
        let start = Memory.now()

        var fetched: [GTask]? = try context.fetch(request)
        XCTAssertEqual(fetched?.count, count)
        XCTAssertEqual(fetched?.last?.project?.name.hasPrefix("p"), true)
        let held = Memory.now()
        fetched = nil
        let end = Memory.now()

        let mb = { (bytes: Int) in String(format: "%.1f MB", Double(bytes) / 1_048_576) }
        print("ContextMemoryTests.\(name): allocated \(mb(start.allocated)) at start, \(mb(held.allocated)) holding "
              + "\(count) objects, \(mb(end.allocated)) after dropping them; resident \(mb(start.resident)), "
              + "\(mb(held.resident)), \(mb(end.resident))")
        XCTAssertTrue(context.registeredObjects.isEmpty, "\(context.registeredObjects.count) objects still registered")
        // The measurement sees the objects (so it can see them stay)...
        XCTAssertGreaterThan(held.allocated - start.allocated, count * 100, "the fetched objects were not measured")
        XCTAssertGreaterThan(held.resident - start.resident, count * 100, "the fetched objects were not measured")
        // ...and they are gone. Allocated: under 2 MB more (an identity map that did not
        // shrink would keep 4 MB at 100,000 objects); resident: under 8 MB more.
        XCTAssertLessThan(end.allocated - start.allocated, 2 << 20, "memory kept after the objects were dropped")
        XCTAssertLessThan(end.resident - start.resident, 8 << 20, "resident memory kept after the objects were dropped")
        #else
        throw XCTSkip("measures memory with glibc's malloc_info")
        #endif
    }
}

#if canImport(Glibc)
/// The process's memory: bytes malloc has handed out and not had back (what the program
/// holds, whatever the allocator keeps cached for reuse), and resident bytes (`/proc/self/statm`).
private struct Memory {
    let allocated: Int
    let resident: Int

    /// Measures after giving the allocator's free memory back to the system (`malloc_trim`),
    /// so resident memory is what is in use, not what an earlier phase left cached.
    static func now() -> Memory {
        typealias MallocTrim = @convention(c) (Int) -> Int32
        if let trim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(trim, to: MallocTrim.self)(0)
        }
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return Memory(allocated: allocatedBytes(), resident: pages * Int(sysconf(Int32(_SC_PAGESIZE))))
    }

    /// In use = the arenas' memory minus their free chunks, plus mmapped chunks: the totals
    /// of glibc's `malloc_info` report (mallinfo2 is not in Swift's Glibc module; malloc_info
    /// is looked up by name, its report read from a memory stream).
    private static func allocatedBytes() -> Int {
        typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_info") else { return 0 }
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else { return 0 }
        _ = unsafeBitCast(symbol, to: MallocInfo.self)(0, stream)
        fclose(stream)
        guard let buffer else { return 0 }
        defer { free(buffer) }
        let report = String(cString: buffer)
        // The totals follow the last heap's report.
        let totals = report.range(of: "</heap>", options: .backwards).map { report[$0.upperBound...] } ?? report[...]
        func total(_ tag: String) -> Int {
            guard let tagRange = totals.range(of: tag), let sizeRange = totals[tagRange.upperBound...].range(of: "size=\"") else {
                return 0
            }
            return Int(totals[sizeRange.upperBound...].prefix { $0.isNumber }) ?? 0
        }
        return total("<system type=\"current\"") - total("<total type=\"fast\"") - total("<total type=\"rest\"")
            + total("<total type=\"mmap\"")
    }
}
#endif
