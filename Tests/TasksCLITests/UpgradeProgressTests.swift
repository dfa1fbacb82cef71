import Foundation
import PersistKit
import TaskModel
import XCTest

/// Upgrading a large store takes a while: on a terminal `tasks` draws a progress bar on standard
/// error meanwhile (piped, it prints only the one "Upgraded" line: see UpgradeTests).
final class UpgradeProgressTests: XCTestCase {
    func testTheUpgradeShowsProgressOnATerminal() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), let binary = TasksBinary.url else {
            throw XCTSkip("util-linux script is needed to run tasks on a pseudo-terminal")
        }
        let fixture = try CLIFixture()
        try FileManager.default.createDirectory(at: fixture.storeURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        let container = try PersistentContainer(model: try TaskModelV1.makeModel(), store: .sqlite(fixture.storeURL))
        let context = container.newContext()
        _ = TaskModelV1.StoreInfo(context: context)
        for index in 0..<500 {
            TaskModelV1.TaskItem(context: context).name = "Task \(index) #errands"
        }
        try context.save()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", "'\(binary.path)' list --incomplete", "/dev/null"]
        process.environment = fixture.environment(["NO_COLOR": "1"])
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("\r\u{1B}[K[") && text.contains("% upgrading to version \(TaskStore.modelVersion)"), text.debugDescription)
        XCTAssertTrue(text.contains("Upgraded tasks.sqlite to version \(TaskStore.modelVersion) (500 tasks)"), text)
    }
}
