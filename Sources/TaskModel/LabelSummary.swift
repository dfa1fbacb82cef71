/// A project or a tag with how many of its tasks are open and done.
public struct LabelSummary: Sendable, Hashable {
    /// The project's or tag's name.
    public var name: String
    /// How many of its tasks are still to do.
    public var open: Int
    /// How many of its tasks are done.
    public var done: Int

    /// A summary with these counts.
    public init(name: String, open: Int, done: Int) {
        self.name = name
        self.open = open
        self.done = done
    }
}
