import Foundation
import XCTest

/// Holds what ARCHITECTURE.md says of PersistKit's structure, where a test can check it:
/// - the dependency arrows: a file refers to no type declared in a layer above its own, nor to
///   a member an extension in a layer above adds (the text and collections layers are separate
///   targets, so the compiler holds their arrows itself);
/// - every folder of Sources/PersistKit is one ARCHITECTURE.md names, and every folder it
///   names exists;
/// - the context's state is its components': `ManagedObjectContext` stores nothing else, and
///   each component's stored state can be changed only by its own methods;
/// - one type per file, named after it;
/// - one hash table: the multiplicative hash constant appears in `PersistKitCollections` only.
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
        let root = Self.sourcesRoot
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

    /// Names of members that extensions in higher layers add and that also name members of
    /// the standard library, Foundation or the text layer that lower layers use (`.values` of a
    /// dictionary, `TextMatcher.matches`): a use of them proves nothing.
    static let commonMemberNames: Set<String> = [
        "count", "isEmpty", "values", "keys", "first", "last", "description", "name", "key", "value", "index",
        "entity", "storage", "objects", "contains", "insert", "remove", "removeAll", "append", "sql", "kind",
        "base", "names", "slots", "reference", "version", "type", "isNull", "identity", "object", "hash",
        "matches", "range", "write",
    ]

    /// A file uses no member that an extension declared in a higher layer adds (a method on
    /// `ManagedObject` written in `Context/` and called from `Object/` is an upward arrow the
    /// type names do not show). Members are found as `.name` in the code, so a name that a
    /// lower layer (or the standard library, see `commonMemberNames`) also declares is skipped.
    func testNoFileUsesAnExtensionMemberOfALayerAboveItsOwn() throws {
        let files = try Self.sourceFiles(under: Self.sourcesRoot)
        var declaredAt: [String: Set<Int>] = [:]            // any member name -> ranks declaring it
        var extensionMembers: [String: (type: String, rank: Int, file: String)] = [:]
        for file in files {
            guard let rank = Self.ranks[file.layer] else { continue }
            for name in Self.memberNames(in: Self.code(of: file.text)) { declaredAt[name, default: []].insert(rank) }
            for (name, type) in Self.extensionMembers(in: Self.code(of: file.text)) {
                if let known = extensionMembers[name], known.rank <= rank { continue }
                extensionMembers[name] = (type, rank, file.path)
            }
        }
        XCTAssertGreaterThan(extensionMembers.count, 100, "the scan found too few extension members: is the pattern stale?")
        var violations: [String] = []
        for file in files {
            guard let rank = Self.ranks[file.layer] else { continue }
            let code = Self.code(of: file.text)
            for name in Self.dottedNames(in: code) {
                guard let member = extensionMembers[name], member.rank > rank, !Self.commonMemberNames.contains(name),
                      !(declaredAt[name] ?? []).contains(where: { $0 <= rank }),
                      !Self.allowed.contains([file.layer, member.type]) else { continue }
                violations.append("\(file.path) (\(file.layer.isEmpty ? "top level" : file.layer)) uses .\(name), added by \(member.file)")
            }
        }
        XCTAssertEqual(violations.sorted(), [], "files use extension members of layers above their own")
    }

    /// The folders ARCHITECTURE.md's folder table names are the folders of Sources/PersistKit.
    func testTheArchitectureNamesEveryFolder() throws {
        let architecture = try String(contentsOf: Self.packageRoot.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)
        let named = Set(Self.matches(#"(?m)^\| `([A-Za-z]+(?:/[A-Za-z]+)*)/`(?:, `([A-Za-z]+(?:/[A-Za-z]+)*)/`)? \|"#, in: architecture))
        var folders: Set<String> = []
        let enumerator = FileManager.default.enumerator(at: Self.sourcesRoot, includingPropertiesForKeys: [.isDirectoryKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true, url.pathExtension != "docc" else {
                if url.pathExtension == "docc" { enumerator?.skipDescendants() }
                continue
            }
            folders.insert(String(url.path.dropFirst(Self.sourcesRoot.path.count + 1)))
        }
        XCTAssertGreaterThan(folders.count, 20, "expected PersistKit's folders under \(Self.sourcesRoot.path)")
        XCTAssertEqual(folders.subtracting(named).sorted(), [], "folders ARCHITECTURE.md does not describe")
        XCTAssertEqual(named.subtracting(folders).sorted(), [], "folders ARCHITECTURE.md describes that do not exist")
        for layer in Self.ranks.keys where !layer.isEmpty {
            XCTAssertTrue(architecture.contains("`\(layer)/`"), "ARCHITECTURE.md's layer table does not name \(layer)/")
        }
    }

    /// The context's components, each the one owner of its state (ARCHITECTURE.md).
    static let contextComponents = ["ObjectRegistry", "ChangeTracker", "GraphState", "PendingNotice", "ContextObservers", "MergeCursor",
                                    "ContextFamily"]

    /// `ManagedObjectContext` stores its components and the user's settings, nothing else; a
    /// component's stored properties are private or `private(set)`, so only its own methods
    /// change them.
    func testTheContextsStateIsItsComponents() throws {
        let context = try String(contentsOf: Self.sourcesRoot.appendingPathComponent("Context/ManagedObjectContext.swift"), encoding: .utf8)
        // Stored properties: computed ones open a brace on their line.
        let stored = Self.matches(#"(?m)^    (?:@exclusivity\(unchecked\) )?(?:public |private |internal )?var (\w+)[^{\n]*$"#, in: Self.code(of: context))
        let settings: Set<String> = ["mergePolicy", "name", "transactionAuthor", "automaticallyMergesChanges", "logger",
                                     "logSink", "lastInsertClass", "lastInsertEntity"]
        let components: Set<String> = ["registry", "changeTracker", "graph", "pendingNotice", "observers", "mergeCursor", "family"]
        XCTAssertEqual(Set(stored).subtracting(settings).subtracting(components).sorted(), [],
                       "ManagedObjectContext stores state outside its components (ARCHITECTURE.md, The context's components)")
        for component in Self.contextComponents {
            let url = Self.sourcesRoot.appendingPathComponent("Context/State/\(component).swift")
            let text = Self.code(of: try String(contentsOf: url, encoding: .utf8))
            let open = Self.matches(#"(?m)^    (?:@exclusivity\(unchecked\) )?(?:internal )?var (\w+)[^{\n]*$"#, in: text)
            XCTAssertEqual(open, [], "\(component) lets others change its state directly: make it private or private(set)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: Self.packageRoot
                .appendingPathComponent("Tests/PersistKitTests/\(component)Tests.swift").path), "\(component) has no tests of its own")
        }
    }

    /// One type per file, named after it (ARCHITECTURE.md, Where to add a new feature): a file
    /// of PersistKit or its bottom targets declares at most one top-level type, and its name is
    /// the file's (extensions and closure typealiases aside).
    func testEveryTypeIsInAFileNamedAfterIt() throws {
        var misplaced: [String] = []
        for target in ["PersistKit", "PersistKitText", "PersistKitCollections"] {
            let root = Self.packageRoot.appendingPathComponent("Sources/\(target)")
            for file in try Self.sourceFiles(under: root) {
                let name = URL(fileURLWithPath: file.path).deletingPathExtension().lastPathComponent
                let types = Self.matches(#"(?m)^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect)\s+)*(?:class|struct|enum|protocol|actor)\s+(\w+)"#,
                                         in: Self.code(of: file.text))
                if types.count > 1 || (types.count == 1 && types[0] != name) {
                    misplaced.append("\(target)/\(file.path) declares \(types.joined(separator: ", "))")
                }
            }
        }
        XCTAssertEqual(misplaced, [], "each type goes in a file of its own, named after it")
    }

    /// The one open-addressing table: the multiplicative hash lives in PersistKitCollections only.
    func testOneHashTable() throws {
        var places: [String] = []
        for target in ["PersistKit", "PersistKitText", "TaskModel", "tasks"] {
            let root = Self.packageRoot.appendingPathComponent("Sources/\(target)")
            for file in try Self.sourceFiles(under: root) where file.text.contains("0x9E37_79B9_7F4A_7C15") || file.text.contains("0x9E3779B97F4A7C15") {
                places.append("\(target)/\(file.path)")
            }
        }
        XCTAssertEqual(places, [], "another hand-written hash table: use PersistKitCollections' Int64HashTable")
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static var sourcesRoot: URL { packageRoot.appendingPathComponent("Sources/PersistKit") }

    /// The first capture group of every match of `pattern` (and the second, where it matched).
    static func matches(_ pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).flatMap { match in
            (1..<match.numberOfRanges).compactMap { Range(match.range(at: $0), in: text).map { String(text[$0]) } }
        }
    }

    /// Names of functions and properties declared anywhere in the code.
    static func memberNames(in code: String) -> Set<String> {
        Set(matches(#"(?:func|var|let|case)\s+(\w+)"#, in: code))
    }

    /// Functions and properties declared directly inside top-level `extension` blocks, with
    /// the type each extends.
    static func extensionMembers(in code: String) -> [(name: String, type: String)] {
        var members: [(name: String, type: String)] = []
        var depth = 0
        var extended: String?
        for line in code.split(separator: "\n", omittingEmptySubsequences: false) {
            if depth == 0 {
                extended = matches(#"^(?:(?:public|internal|private|fileprivate|package)\s+)?extension\s+(\w+)"#, in: String(line)).first
            }
            if let extended, depth == 1 {
                for name in matches(#"^\s+(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|package|static|final|mutating|nonmutating|override)\s+)*(?:func|var)\s+(\w+)"#, in: String(line)) {
                    members.append((name, extended))
                }
            }
            for character in line {
                if character == "{" { depth += 1 } else if character == "}" { depth = max(0, depth - 1) }
            }
        }
        return members
    }

    /// Names used after a dot: members called or read (`object.isChangedSinceRead`).
    static func dottedNames(in code: String) -> Set<String> {
        Set(matches(#"\.([a-z]\w*)\b"#, in: code))
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
