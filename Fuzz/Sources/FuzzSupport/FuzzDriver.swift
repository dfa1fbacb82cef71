import Foundation

@_silgen_name("LLVMFuzzerRunDriver")
private func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// Runs libFuzzer with the process's arguments and `target` as the function under test.
///
/// SwiftPM renames an executable's `main` to `<module>_main` (so that tests can link it), and
/// libFuzzer's own `main` is then unused: each target's `<module>_main` calls this.
public func runFuzzer(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                      _ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt {
    var count = argc
    var arguments = argv
    return llvmFuzzerRunDriver(&count, &arguments, target)
}

/// The input as bytes (libFuzzer may pass a nil pointer for an empty input).
public func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
    guard let data, count > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: count))
}

/// A finding: the library did something no input may make it do (crash-worthy for the
/// fuzzer, which saves the input). Prints what, then traps.
public func fuzzFinding(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("FUZZ FINDING: " + message + "\n").utf8))
    fatalError(message)
}

/// A writable temporary directory for the process, removed at exit by the system's tmp cleaner
/// only: fuzzing processes are killed, not shut down.
public let fuzzDirectory: URL = {
    let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("persistkit-fuzz-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()
