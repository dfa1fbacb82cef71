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
        "Container/PersistentContainer.swift",
        "Context/ChangedKeys.swift",
        "Context/ContextChanges.swift",
        "Context/ManagedObjectContext.swift",
        "Fetch/FetchPredicate.swift",
        "Fetch/FetchRequest.swift",
        "Fetch/FetchSortDescriptor.swift",
        "Fetch/StringComparisonOptions.swift",
        "Model/AttributeDescription.swift",
        "Model/AttributeType.swift",
        "Model/AttributeValidation.swift",
        "Model/AttributeValue.swift",
        "Model/EntityDescription.swift",
        "Model/ManagedObjectModel.swift",
        "Model/MeasuredAttributeValue.swift",
        "Model/OrderedAttributeValue.swift",
        "Object/Attribute.swift",
        "Object/AttributeOption.swift",
        "Object/ManagedObject.swift",
        "Object/ObjectID.swift",
        "PersistError.swift",
        "Results/ChangeSet.swift",
        "Results/FetchedResultsController.swift",
        "Results/FetchedResultsControllerDelegate.swift",
        "Results/ResultsChangeType.swift",
        "Results/ResultsSection.swift",
        "SQLite/SQLValue.swift",
        "SQLite/SQLiteConnection.swift",
        "SQLiteResultCode.swift",
        "Store/StoreDescription.swift",
    ]

    /// The main methods and properties: a file and a piece of the declaration's line that is
    /// unique among the file's public declarations.
    private let mainMembers = [
        ("Container/PersistentContainer.swift", "init(model: ManagedObjectModel, store: StoreDescription, options:"),
        ("Container/PersistentContainer.swift", "func newContext()"),
        ("Container/PersistentContainer.swift", "var viewContext"),
        ("Context/ManagedObjectContext+Save.swift", "func save()"),
        ("Context/ManagedObjectContext+Fetch.swift", "func fetch<"),
        ("Context/ManagedObjectContext+Fetch.swift", "func fetchObjectIDs<"),
        ("Context/ManagedObjectContext+Fetch.swift", "func count<"),
        ("Context/ManagedObjectContext+Changes.swift", "func processPendingChanges()"),
        ("Context/ManagedObjectContext+Changes.swift", "func rollback()"),
        ("Context/ManagedObjectContext+Changes.swift", "func reset()"),
        ("Context/ManagedObjectContext+Changes.swift", "func refresh("),
        ("Context/ManagedObjectContext.swift", "func insert("),
        ("Context/ManagedObjectContext.swift", "func delete("),
        ("Context/ManagedObjectContext.swift", "func object(with"),
        ("Context/ManagedObjectContext.swift", "func existingObject(with"),
        ("Context/ManagedObjectContext.swift", "func addObserver("),
        ("Context/ManagedObjectContext.swift", "var hasChanges"),
        ("Context/ManagedObjectContext+PrimaryKey.swift", "func existingObject<"),
        ("Fetch/FetchRequest.swift", "init(predicate: FetchPredicate<Result>? = nil, sortBy sortDescriptors: [FetchSortDescriptor<Result>]"),
        ("Fetch/FetchRequest.swift", "init(entityName:"),
        ("Fetch/FetchPredicate.swift", "init(format: String, _ arguments: Any...)"),
        ("Fetch/FetchPredicate.swift", "init(format: String, argumentArray arguments: [Any])"),
        ("Fetch/FetchPredicate.swift", "entity: EntityDescription) throws"),
        ("Fetch/FetchPredicate.swift", "func evaluate(with"),
        ("Fetch/FetchPredicate.swift", "func withSubstitutionVariables("),
        ("Fetch/FetchSortDescriptor.swift", "init<Value: AttributeValue>(_ keyPath: KeyPath<Root, Value>"),
        ("Fetch/FetchSortDescriptor.swift", "init(key: String"),
        ("Results/FetchedResultsController.swift", "init(fetchRequest: FetchRequest<Result>, context: ManagedObjectContext) {"),
        ("Results/FetchedResultsController.swift", "init<Value: AttributeValue>(fetchRequest:"),
        ("Results/FetchedResultsController.swift", "func performFetch()"),
        ("Results/FetchedResultsController.swift", "var fetchedObjects"),
        ("Results/FetchedResultsController.swift", "var sections:"),
        ("Results/FetchedResultsController.swift", "func object(at"),
        ("Results/FetchedResultsController.swift", "func indexPath(forObject"),
        ("Results/FetchedResultsController.swift", "func observe("),
        ("Results/FetchedResultsController.swift", "var changes:"),
        ("Results/FetchedResultsController.swift", "var delegate:"),
        ("Results/ChangeSet+Replay.swift", "func applied<"),
        ("Model/ManagedObjectModel.swift", "init(entities classes:"),
        ("Model/ManagedObjectModel.swift", "init(document: Data, version:"),
        ("Model/ManagedObjectModel.swift", "func entity(named"),
        ("Object/ManagedObject.swift", "convenience init(context:"),
        ("Object/ManagedObject.swift", "func awakeFromInsert()"),
        ("Object/ManagedObject.swift", "func validateForSave()"),
        ("Object/ManagedObject.swift", "func changedValues()"),
        ("Object/ManagedObject+KeyValue.swift", "func value(forKey"),
        ("Object/ManagedObject+KeyValue.swift", "func setValue("),
        ("Object/Attribute.swift", "init(wrappedValue: Value, _ options:"),
        ("Object/ObjectID.swift", "var uriRepresentation"),
        ("Object/ObjectID.swift", "init?(uriRepresentation"),
        ("Store/StoreDescription.swift", "func sqlite("),
        ("Store/StoreDescription.swift", "var inMemory"),
        ("PersistError.swift", "var reason:"),
    ]

    private func lines(of file: String) throws -> [String] {
        try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
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
