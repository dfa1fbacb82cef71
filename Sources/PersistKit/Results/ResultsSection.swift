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
    /// The section's objects, in order.
    public let objects: [Result]
    /// How many objects the section has.
    public var numberOfObjects: Int { objects.count }
}
