import ArgumentParser
import Foundation
import PersistKit

/// The store a command reads: opened read-only, its model from the document it records.
struct StoreArgument: ParsableArguments {
    @Argument(help: "The store file (a PersistKit SQLite store).")
    var store: String

    var url: URL { URL(fileURLWithPath: store) }

    /// The store opened for inspection, without a model.
    func inspector() throws -> StoreInspector {
        try StoreInspector(url: url)
    }

    /// The model the store records, or a clear failure for a store written before stores
    /// recorded their model.
    func recordedModel(_ inspector: StoreInspector) throws -> ManagedObjectModel {
        guard let model = try inspector.recordedModel() else {
            throw ToolError.failure("\(store) records no model document (it was written before PersistKit stores recorded "
                                    + "their model): open it once with its application, whose next save records it")
        }
        return model
    }

    /// A read-only container over the store with its recorded model: fetches and history go
    /// through the library itself.
    func container(_ inspector: StoreInspector) throws -> PersistentContainer {
        try PersistentContainer(model: recordedModel(inspector), store: .sqlite(url, readOnly: true))
    }
}
