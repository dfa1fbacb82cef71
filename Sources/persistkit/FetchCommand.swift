import ArgumentParser
import Foundation
import PersistKit
import TerminalProgress

/// `persistkit fetch STORE ENTITY`: objects of an entity, through the library's own fetch, on
/// the model the store records.
struct FetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Fetches objects of an entity: a table by default, JSON on request, relationships as references.",
        discussion: """
            The condition is PersistKit's predicate format (Core Data's NSPredicate syntax): \
            comparisons (== != < <= > >= BETWEEN IN), strings (BEGINSWITH ENDSWITH CONTAINS LIKE \
            MATCHES, [c] ignoring case, [d] accents), AND OR NOT, nil, YES/NO, and relationships \
            (project.name == 'Home', ANY tags.name == 'errands', tags.@count > 2). It runs through \
            the same fetch as the library's, so it matches exactly what the application's \
            fetches match. Each object shows its primary key (#), its attributes, and its \
            relationships as references: Project #3, or a list of them.

            Examples:
              persistkit fetch tasks.sqlite Task
              persistkit fetch tasks.sqlite Task --where "isComplete == NO AND due < '2026-12-01'" --sort due,-priority
              persistkit fetch tasks.sqlite Task --where "name CONTAINS[cd] 'cafe'" --limit 10 --json
              persistkit fetch tasks.sqlite Project --where "tasks.@count > 5"
            """)

    @OptionGroup var location: StoreArgument
    @Argument(help: "The entity to fetch.") var entity: String
    @Option(name: .customLong("where"), help: "Only the objects that match this condition (predicate format).")
    var condition: String?
    @Option(parsing: .unconditional,
            help: ArgumentHelp("Sort by these keys, comma-separated; a leading - sorts descending (nil first ascending).",
                               valueName: "KEY[,-KEY]"))
    var sort: String?
    @Option(help: "At most this many objects.") var limit: Int?
    @Flag(help: "Print JSON: an array of objects.") var json = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more, not \(limit)") }
    }

    func run() throws {
        let inspector = try location.inspector()
        let container = try location.container(inspector)
        guard let description = container.model.entity(named: entity) else {
            throw ToolError.usage("\(location.store) has no entity \(Output.visible(entity)) (its entities: "
                                  + container.model.entities.map(\.name).joined(separator: ", ") + ")")
        }
        var request = FetchRequest<ManagedObject>(entityName: description.name)
        do {
            if let condition { request.predicate = try FetchPredicate(format: condition, entity: description) }
            request.sortDescriptors = try sortDescriptors()
        } catch let error as PersistError {
            throw ToolError.usage(ToolError.line(for: error))
        }
        request.fetchLimit = limit ?? 0
        request.fetchBatchSize = 500
        request.relationshipKeyPathsForPrefetching = description.relationships.map(\.name)
        let context = container.newContext()
        let objects: BatchedResults<ManagedObject>
        do {
            objects = try context.fetchBatched(request)
        } catch let error as PersistError where error.code == .invalidPredicate || error.code == .invalidRequest
                    || error.code == .unknownKey {
            throw ToolError.usage(ToolError.line(for: error))
        }
        let rows = RowFormatter(entity: description)
        let progress = ProgressBar()
        if json {
            var lines = ["["]
            for (index, object) in objects.enumerated() {
                progress.show("reading \(description.name)", done: index, total: objects.count)
                lines.append("  " + (try rows.json(object)) + (index < objects.count - 1 ? "," : ""))
            }
            progress.clear()
            lines.append("]")
            Output.line(lines.joined(separator: "\n"))
            return
        }
        var table: [[String]] = []
        for (index, object) in objects.enumerated() {
            progress.show("reading \(description.name)", done: index, total: objects.count)
            table.append(try rows.cells(object))
        }
        progress.clear()
        rows.table(table).forEach(Output.line)
    }

    /// `due,-priority` as sort descriptors.
    private func sortDescriptors() throws -> [FetchSortDescriptor<ManagedObject>] {
        guard let sort else { return [] }
        return try sort.split(separator: ",", omittingEmptySubsequences: false).map { part in
            let key = part.trimmingCharacters(in: .whitespaces)
            let descending = key.hasPrefix("-")
            let name = descending ? String(key.dropFirst()) : key
            guard !name.isEmpty else { throw ToolError.usage("--sort '\(Output.visible(sort))' has an empty key") }
            return FetchSortDescriptor(key: name, order: descending ? .reverse : .forward)
        }
    }
}
