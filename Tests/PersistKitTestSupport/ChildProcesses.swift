import Foundation
import XCTest

/// A product the package builds (`tasks`, `persistkit`), found next to the test bundle in the
/// products directory; nil when it was not built.
public func builtExecutable(named name: String) -> URL? {
    var candidates: [URL] = []
    // Linux: the test runner is an executable in the products directory.
    if let executable = Bundle.main.executableURL {
        candidates.append(executable.deletingLastPathComponent().appendingPathComponent(name))
    }
    candidates.append(Bundle.main.bundleURL.appendingPathComponent(name))
    // macOS: the tests are an .xctest bundle inside the products directory.
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
    }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
}

/// Runs `executable` with `arguments` on a pseudo-terminal (util-linux `script`), as a person at
/// a terminal would, and returns its exit status and everything it showed (standard output
/// and error together). Skips the test where `script` is missing.
public func runOnTerminal(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws
    -> (status: Int32, text: String) {
    let script = URL(fileURLWithPath: "/usr/bin/script")
    try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: script.path), "needs util-linux script for a terminal")
    let quoted = ([executable.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    let process = Process()
    process.executableURL = script
    process.arguments = ["-qec", quoted.joined(separator: " "), "/dev/null"]
    if let environment { process.environment = environment }
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
