import Foundation
import XCTest

/// Every main type and method shows a code example in its doc comment, for DocC (issue 14,
/// item 23). A source scan: the `///` lines right above a declaration (attributes such as
/// `@MainActor` skipped) must hold a ```swift block.
final class DocCExamplesTests: XCTestCase {
    private let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/PersistKit")

    /// The files that declare the public types a user meets (every public type in them,
    /// nested ones too, must show an example).
    private let mainFiles = [
        "PersistentContainer.swift",
        "ChangedKeys.swift",
        "ContextChanges.swift",
        "MergePolicy.swift",
        "ObservationToken.swift",
        "ManagedObjectContext.swift",
        "FetchPredicate.swift",
        "FetchRequest.swift",
        "FetchSortDescriptor.swift",
        "StringComparisonOptions.swift",
        "AttributeDescription.swift",
        "AttributeType.swift",
        "AttributeValidation.swift",
        "AttributeValue.swift",
        "PlaceholderAttributeValue.swift",
        "EntityDescription.swift",
        "ManagedObjectModel.swift",
        "MeasuredAttributeValue.swift",
        "OrderedAttributeValue.swift",
        "Attribute.swift",
        "AttributeOption.swift",
        "ManagedObject.swift",
        "ObjectID.swift",
        "PersistError.swift",
        "ChangeSet.swift",
        "FetchedResultsController.swift",
        "FetchedResultsControllerDelegate.swift",
        "ResultsChangeType.swift",
        "ResultsSection.swift",
        "SQLValue.swift",
        "SQLiteConnection.swift",
        "SynchronousMode.swift",
        "SQLiteResultCode.swift",
        "StoreDescription.swift",
    ]

    /// The main methods and properties: a file and a piece of the declaration's line that is
    /// unique among the file's public declarations.
    private let mainMembers = [
        ("PersistentContainer.swift", "init(model: ManagedObjectModel, store: StoreDescription, options:"),
        ("PersistentContainer.swift", "func newContext()"),
        ("PersistentContainer.swift", "var viewContext"),
        ("ManagedObjectContext+Save.swift", "func save()"),
        ("ManagedObjectContext+Fetch.swift", "func fetch<"),
        ("ManagedObjectContext+Fetch.swift", "func fetchObjectIDs<"),
        ("ManagedObjectContext+Fetch.swift", "func count<"),
        ("ManagedObjectContext+ProcessPendingChanges.swift", "func processPendingChanges()"),
        ("ManagedObjectContext+Rollback.swift", "func rollback()"),
        ("ManagedObjectContext+Reset.swift", "func reset()"),
        ("ManagedObjectContext+Refresh.swift", "func refresh("),
        ("ManagedObjectContext.swift", "func insert("),
        ("ManagedObjectContext.swift", "func delete("),
        ("ManagedObjectContext.swift", "func object(with"),
        ("ManagedObjectContext.swift", "func existingObject(with"),
        ("ManagedObjectContext.swift", "func addObserver("),
        ("ManagedObjectContext.swift", "var hasChanges"),
        ("ManagedObjectContext+PrimaryKey.swift", "func existingObject<"),
        ("FetchRequest.swift", "init(predicate: FetchPredicate<Result>? = nil, sortBy sortDescriptors: [FetchSortDescriptor<Result>]"),
        ("FetchRequest.swift", "init(entityName:"),
        ("FetchPredicate.swift", "init(format: String, _ arguments: Any...)"),
        ("FetchPredicate.swift", "init(format: String, argumentArray arguments: [Any])"),
        ("FetchPredicate.swift", "entity: EntityDescription) throws"),
        ("FetchPredicate.swift", "func evaluate(with"),
        ("FetchPredicate.swift", "func withSubstitutionVariables("),
        ("FetchSortDescriptor.swift", "init<Value: AttributeValue>(_ keyPath: KeyPath<Root, Value>"),
        ("FetchSortDescriptor.swift", "init(key: String"),
        ("FetchedResultsController.swift", "init(fetchRequest: FetchRequest<Result>, context: ManagedObjectContext) {"),
        ("FetchedResultsController.swift", "init<Value: AttributeValue>(fetchRequest:"),
        ("FetchedResultsController.swift", "func performFetch()"),
        ("FetchedResultsController.swift", "var fetchedObjects"),
        ("FetchedResultsController.swift", "var sections:"),
        ("FetchedResultsController.swift", "func object(at"),
        ("FetchedResultsController.swift", "func indexPath(forObject"),
        ("FetchedResultsController.swift", "func observe("),
        ("FetchedResultsController.swift", "var changes:"),
        ("FetchedResultsController.swift", "var delegate:"),
        ("ChangeSet+Replay.swift", "func applied<"),
        ("ManagedObjectModel.swift", "init(entities classes:"),
        ("ManagedObjectModel.swift", "init(document: Data, version:"),
        ("ManagedObjectModel.swift", "func entity(named"),
        ("ManagedObject.swift", "convenience init(context:"),
        ("ManagedObject.swift", "func awakeFromInsert()"),
        ("ManagedObject.swift", "func validateForSave()"),
        ("ManagedObject.swift", "func changedValues()"),
        ("ManagedObject+KeyValue.swift", "func value(forKey"),
        ("ManagedObject+KeyValue.swift", "func setValue("),
        ("Attribute.swift", "init(wrappedValue: Value, _ options:"),
        ("ObjectID.swift", "var uriRepresentation"),
        ("ObjectID.swift", "init?(uriRepresentation"),
        ("StoreDescription.swift", "func sqlite("),
        ("StoreDescription.swift", "var inMemory"),
        ("PersistError.swift", "var reason:"),
    ]

    /// The file named `name` anywhere under Sources/PersistKit (files move between folders;
    /// their names are unique).
    private func url(of name: String) throws -> URL {
        var found: [URL] = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            if file.lastPathComponent == name { found.append(file) }
        }
        return try XCTUnwrap(found.count == 1 ? found.first : nil,
                             "\(found.count) files named \(name) under Sources/PersistKit (expected one)")
    }

    private func lines(of file: String) throws -> [String] {
        try String(contentsOf: url(of: file), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The `///` lines right above line `index`, attributes (`@MainActor`) skipped.
    private func docComment(above index: Int, in lines: [String]) -> [String] {
        var line = index - 1
        while line >= 0, lines[line].trimmingCharacters(in: .whitespaces).hasPrefix("@") { line -= 1 }
        var doc: [String] = []
        while line >= 0, lines[line].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
            doc.append(lines[line])
            line -= 1
        }
        return doc.reversed()
    }

    private func hasExample(_ doc: [String]) -> Bool {
        doc.contains { $0.contains("/// ```swift") }
    }

    func testEveryPublicTypeOfTheMainFilesShowsAnExample() throws {
        let declaration = try NSRegularExpression(pattern:
            #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?:final\s+)?(?:class|struct|enum|protocol|actor)\s+(\w+)"#)
        var found = 0
        for file in mainFiles {
            let source = try lines(of: file)
            for (index, line) in source.enumerated() {
                guard let match = declaration.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                      let nameRange = Range(match.range(at: 1), in: line) else { continue }
                let name = String(line[nameRange])
                if ["var", "func", "let", "subscript", "init"].contains(name) { continue }   // `open class var`
                found += 1
                let doc = docComment(above: index, in: source)
                XCTAssertFalse(doc.isEmpty, "\(file):\(index + 1): public type \(name) has no doc comment")
                XCTAssertTrue(doc.isEmpty || hasExample(doc),
                              "\(file):\(index + 1): the doc comment of \(name) shows no ```swift example")
            }
        }
        XCTAssertGreaterThanOrEqual(found, mainFiles.count, "the scan found too few public types: is the pattern stale?")
    }

    func testTheMainMethodsShowAnExample() throws {
        for (file, piece) in mainMembers {
            let source = try lines(of: file)
            let matches = source.indices.filter { index in
                let line = source[index]
                return line.contains(piece) && (line.contains("public ") || line.contains("open "))
            }
            guard matches.count == 1, let index = matches.first else {
                XCTFail("\(file): \(matches.count) public declarations contain \"\(piece)\" (expected one)")
                continue
            }
            XCTAssertTrue(hasExample(docComment(above: index, in: source)),
                          "\(file):\(index + 1): the doc comment of `\(piece)` shows no ```swift example")
        }
    }
}
