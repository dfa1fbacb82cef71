import Foundation
import XCTest

/// Holds PersistKit's dependency arrows: a file refers to no type declared in a layer above its
/// own. (The text layer is a separate target, so the compiler holds that one arrow itself.)
///
/// Layers, bottom up: the shared vocabulary (top-level files: `PersistError`...), `SQLite/`,
/// then `Model/`, `Object/` and `Fetch/` (one layer: they use one another), `Store/`,
/// `Migration/` and `History/`, `Context/`, `Batch/` and `Results/`, `Container/`.
final class LayeringTests: XCTestCase {
    static let ranks: [String: Int] = [
        "": 0, "SQLite": 1, "Model": 2, "Object": 2, "Fetch": 2, "Store": 3, "Migration": 4, "History": 4,
        "Context": 5, "Batch": 6, "Results": 6, "Container": 7,
    ]
    /// The upward references the design allows: (layer, type). A managed object names the
    /// context that owns it in its public API (`init(entity:insertInto:)`, `managedObjectContext`),
    /// as in Core Data; errors name objects by `ObjectID`.
    static let allowed: Set<[String]> = [["Object", "ManagedObjectContext"], ["", "ObjectID"]]

    struct SourceFile {
        let path: String
        let layer: String
        let text: String
    }

    func testNoFileRefersToALayerAboveItsOwn() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/PersistKit")
        let files = try Self.sourceFiles(under: root)
        XCTAssertGreaterThan(files.count, 20, "expected PersistKit's sources under \(root.path)")
        var declaredIn: [String: String] = [:]   // type name -> layer
        for file in files {
            XCTAssertNotNil(Self.ranks[file.layer], "\(file.path) is in a folder the layering does not know: add it to ranks")
            for name in Self.declaredTypes(in: file.text) { declaredIn[name] = file.layer }
        }
        var violations: [String] = []
        for file in files {
            guard let rank = Self.ranks[file.layer] else { continue }
            for name in Self.identifiers(in: Self.code(of: file.text)) {
                guard let layer = declaredIn[name], let other = Self.ranks[layer], other > rank,
                      !Self.allowed.contains([file.layer, name]) else { continue }
                violations.append("\(file.path) (\(file.layer.isEmpty ? "top level" : file.layer)) refers to \(name) of \(layer)")
            }
        }
        XCTAssertEqual(violations.sorted(), [], "files refer to layers above their own")
    }

    static func sourceFiles(under root: URL) throws -> [SourceFile] {
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        var files: [SourceFile] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let relative = String(url.path.dropFirst(root.path.count + 1))
            let components = relative.split(separator: "/")
            let layer = components.count > 1 ? String(components[0]) : ""
            files.append(SourceFile(path: relative, layer: layer, text: try String(contentsOf: url, encoding: .utf8)))
        }
        return files
    }

    /// Top-level type declarations (not nested ones, which start with white space).
    static func declaredTypes(in text: String) -> [String] {
        let pattern = #"(?m)^(?:(?:public|package|internal|fileprivate|private|final|indirect)\s+)*(?:class|struct|enum|protocol|actor|typealias)\s+(\w+)"#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// The text without comments and string literals, which may name anything.
    static func code(of text: String) -> String {
        var result = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var inString = false
            var previous: Character = " "
            var kept = ""
            for character in line {
                if !inString && character == "/" && previous == "/" {
                    kept.removeLast()
                    break
                }
                if character == "\"" && previous != "\\" { inString.toggle() }
                if !inString && character != "\"" { kept.append(character) }
                previous = character
            }
            result += kept + "\n"
        }
        return result
    }

    static func identifiers(in code: String) -> Set<String> {
        var names: Set<String> = []
        var current = ""
        for character in code {
            if character.isLetter || character.isNumber || character == "_" {
                current.append(character)
            } else {
                if !current.isEmpty { names.insert(current) }
                current = ""
            }
        }
        if !current.isEmpty { names.insert(current) }
        return names
    }
}
