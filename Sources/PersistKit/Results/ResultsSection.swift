/// One section of a ``FetchedResultsController``'s results.
///
/// ```swift
/// for section in results.sections {
///     print(section.name, section.numberOfObjects)     // "false" 12, "true" 30
///     for task in section.objects { print("  ", task.name) }
/// }
/// ```
public struct ResultsSection<Result: ManagedObject> {
    /// The section key's value as text: `true`/`false` for booleans, decimal numbers,
    /// strings as they are, dates in ISO 8601, UUIDs in their standard form, and the empty
    /// string for nil (nil is a section of its own).
    public let name: String
    /// The first character of the name, uppercased; nil for an empty name.
    public let indexTitle: String?
    /// How many objects the section has.
    public let numberOfObjects: Int
    private let heldObjects: [Result]?
    private let makeObjects: (() -> [Result])?

    /// The section's objects, in order.
    ///
    /// A batched controller (its request has a ``FetchRequest/fetchBatchSize``) holds keys,
    /// not objects: reading this makes every object of the section at once. To keep memory
    /// bounded, read rows with ``FetchedResultsController/object(at:)`` instead.
    public var objects: [Result] { heldObjects ?? makeObjects?() ?? [] }

    init(name: String, indexTitle: String?, objects: [Result]) {
        self.name = name
        self.indexTitle = indexTitle
        numberOfObjects = objects.count
        heldObjects = objects
        makeObjects = nil
    }

    /// A section whose objects are made when they are read.
    init(name: String, indexTitle: String?, count: Int, makeObjects: @escaping () -> [Result]) {
        self.name = name
        self.indexTitle = indexTitle
        numberOfObjects = count
        heldObjects = nil
        self.makeObjects = makeObjects
    }
}
