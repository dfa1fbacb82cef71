import Foundation

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension FetchSortDescriptor where Root: ManagedObject {
    /// Sorts as a Foundation `FetchSortDescriptor` made from a key path does: by the attribute the
    /// key path names, in its order, nil before every value (so first when `.forward`, last when
    /// `.reverse`, as Foundation orders optionals).
    ///
    /// ```swift
    /// let byDue = FetchSortDescriptor(Foundation.SortDescriptor(\TaskItem.due, order: .reverse))
    /// ```
    ///
    /// Strings compare by UTF-8 bytes (``StringComparison/binary``) for `String.StandardComparator.lexical`
    /// and for a descriptor made without a comparator, and by ``StringComparison/localizedStandard``
    /// for `.localizedStandard` where Foundation has it. A descriptor without a key path, or with
    /// another comparator, makes a fetch throw ``PersistError`` with code `.invalidRequest`.
    public init(_ descriptor: Foundation.SortDescriptor<Root>) {
        order = descriptor.order
        nils = descriptor.order == .forward ? .first : .last
        let (comparison, problem) = Self.comparison(of: descriptor.stringComparator)
        self.comparison = comparison
        guard let keyPath = descriptor.keyPath else {
            key = "?"
            error = PersistError(.invalidRequest, "Cannot sort by a Foundation SortDescriptor that has no key path")
            return
        }
        switch Self.attribute(keyPath) {
        case .success(let name):
            key = name
            error = problem.map { PersistError(.invalidRequest, "Cannot sort by \(name): " + $0, attribute: name) }
        case .failure(let failure):
            key = FetchPredicate<Root>.describe(keyPath)
            error = PersistError(.invalidRequest, "Cannot sort \(Root.self): " + failure.message,
                                 entity: failure.entity, attribute: failure.attribute)
        }
    }

    /// The key of the attribute a partial key path names (perhaps through to-ones), through the
    /// attribute value type it reads.
    private static func attribute(_ keyPath: PartialKeyPath<Root>) -> Result<String, PersistError> {
        guard let valueType = type(of: keyPath).valueType as? any AttributeValue.Type else {
            return .failure(PersistError(.invalidRequest,
                "\(type(of: keyPath).valueType) is not an attribute value type, so \(FetchPredicate<Root>.describe(keyPath)) names no @Attribute"))
        }
        return attribute(keyPath, valueType)
    }

    private static func attribute<Value: AttributeValue>(_ keyPath: PartialKeyPath<Root>,
                                                        _: Value.Type) -> Result<String, PersistError> {
        guard let typed = keyPath as? KeyPath<Root, Value> else {
            return .failure(PersistError(.invalidRequest, "\(FetchPredicate<Root>.describe(keyPath)) does not read a \(Value.self)"))
        }
        return FetchPredicate<Root>.attributeKey(typed).map(\.key)
    }

    /// The string comparison of a Foundation comparator, or a problem when there is none.
    private static func comparison(of comparator: String.StandardComparator?) -> (StringComparison, String?) {
        guard let comparator else { return (.binary, nil) }
        let forward = String.StandardComparator(comparator, order: .forward)
        if forward == .lexical { return (.binary, nil) }
        #if canImport(Darwin)
        if forward == .localizedStandard { return (.localizedStandard, nil) }
        #endif
        return (.binary, "its String comparator is not supported (only .lexical and .localizedStandard are): "
                + "use PersistKit's FetchSortDescriptor(_:comparison:)")
    }
}
