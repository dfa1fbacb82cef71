import ArgumentParser
import Foundation
import PersistKit

/// `persistkit history STORE`: the persistent history's transactions.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Lists the store's persistent history: each transaction with its author, context name, time and changes.",
        discussion: """
            Transactions are numbered from 1 in the order they were saved; a store keeps the \
            recent ones (its HistoryRetention). Changes name each object by entity and primary \
            key, and an update the keys it changed; values are not kept in the history.

            Examples:
              persistkit history tasks.sqlite
              persistkit history tasks.sqlite --after 120 --author sync --json
            """)

    @OptionGroup var location: StoreArgument
    @Option(help: ArgumentHelp("Only the transactions after this one.", valueName: "TRANSACTION")) var after: Int64?
    @Option(help: "Only the transactions of this author.") var author: String?
    @Flag(help: "Print JSON: an array of transactions.") var json = false

    func validate() throws {
        if let after, after < 0 { throw ValidationError("--after must be a transaction number, 0 or more, not \(after)") }
    }

    func run() throws {
        let inspector = try location.inspector()
        let container = try location.container(inspector)
        let token = after.map { HistoryToken(storeIdentifier: container.storeIdentifier, transactionNumber: $0) }
        let transactions = try container.history(after: token).filter { author == nil || $0.author == author }
        if json {
            Output.line("[" + transactions.map { "\n  " + Self.json($0) }.joined(separator: ",") + (transactions.isEmpty ? "]" : "\n]"))
            return
        }
        for transaction in transactions {
            var line = "#\(transaction.token.transactionNumber)  \(Dates.text(transaction.timestamp))"
            if let author = transaction.author { line += "  author \(Output.visible(author))" }
            if let context = transaction.contextName { line += "  context \(Output.visible(context))" }
            Output.line(line)
            for change in transaction.changes {
                let keys = change.changedKeys.isEmpty ? "" : " (" + change.changedKeys.joined(separator: ", ") + ")"
                Output.line("  \(change.kind.rawValue) \(change.objectID.entityName) #\(change.objectID.primaryKey ?? 0)\(keys)")
            }
        }
        if transactions.isEmpty { Output.line("no transactions" + (after == nil && author == nil ? "" : " match")) }
    }

    private static func json(_ transaction: HistoryTransaction) -> String {
        let changes = transaction.changes.map { change in
            "{\"kind\": \(RowFormatter.quoted(change.kind.rawValue)), \"entity\": \(RowFormatter.quoted(change.objectID.entityName)), "
                + "\"key\": \(change.objectID.primaryKey ?? 0), \"changedKeys\": ["
                + change.changedKeys.map(RowFormatter.quoted).joined(separator: ", ") + "]}"
        }
        return "{\"transaction\": \(transaction.token.transactionNumber), \"date\": \(RowFormatter.quoted(Dates.text(transaction.timestamp))), "
            + "\"author\": \(transaction.author.map(RowFormatter.quoted) ?? "null"), "
            + "\"context\": \(transaction.contextName.map(RowFormatter.quoted) ?? "null"), \"changes\": [" + changes.joined(separator: ", ") + "]}"
    }
}
