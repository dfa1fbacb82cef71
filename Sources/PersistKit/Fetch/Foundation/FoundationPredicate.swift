import Foundation

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension FetchPredicate {
    /// Translates a Foundation predicate (SwiftData's `#Predicate`) into a PersistKit predicate,
    /// evaluated by SQLite for saved objects and in memory for pending changes, with the same
    /// answer both ways.
    ///
    /// ```swift
    /// let open = FetchPredicate(#Predicate<TaskItem> { $0.isComplete == false && $0.name.contains("milk") })
    /// ```
    ///
    /// Supported: `==`, `!=`, `<`, `<=`, `>`, `>=` between an attribute (`$0.due`) and a value
    /// (on either side), `&&`, `||`, `!`, `true`/`false`; optionals (`$0.due == nil`,
    /// `$0.notes ?? ""`, `$0.notes?.contains("x") == true`, `flatMap`, `!`); `contains(_:)` and
    /// `starts(with:)` on strings (exact, by bytes, like `contains(_:_:options:)`);
    /// `[1, 2].contains($0.count)` and `(1...5).contains($0.count)`; `+`, `-`, `*`, `/` and unary
    /// `-` of an attribute and values (`$0.count + 1 > 5`); `? :`;
    /// `$0.due!.timeIntervalSinceReferenceDate`, `.timeIntervalSince1970` and an enum's
    /// `.rawValue`. Values are compared as stored: strings by UTF-8 bytes, enums by raw value.
    /// A force unwrap of nil makes the comparison false (Foundation would throw).
    ///
    /// Anything else (comparing two attributes, `%` of an attribute, `max()`, `filter`, casts,
    /// regular expressions...) makes a fetch with this predicate throw ``PersistError`` with code
    /// `.invalidPredicate`, naming the `PredicateExpressions` type it could not translate.
    public init(_ predicate: Foundation.Predicate<Root>) {
        self.init(node: FoundationPredicateTranslator<Root>.node(for: predicate))
    }
}
