import Foundation

extension KeyPathProbe {
    /// Stored values to read an attribute with, to tell the attribute from a computed property
    /// that returns something else for some of them: the attribute's initial value, nil when
    /// it is optional, its type's edge cases (empty and padded strings, case, zero, negatives,
    /// extremes) and every case of a `CaseIterable` enum. Only values its type decodes.
    static func probeValues(for attribute: AttributeDescription, valueType: any AttributeValue.Type,
                            initial: SQLValue) -> [SQLValue] {
        var candidates = [initial]
        if attribute.isOptional { candidates.append(.null) }
        candidates += edgeCases(of: attribute.type)
        candidates += enumCases(of: valueType)
        var values: [SQLValue] = []
        for candidate in candidates where valueType.init(storedValue: candidate) != nil
            && !values.contains(where: { SQLValue.identical($0, candidate) }) {
            values.append(candidate)
        }
        return values
    }

    /// Whether `value`, what a key path returned (perhaps wrapped in optionals), is the value
    /// `stored` decodes to as `valueType`.
    static func value(_ value: Any?, isStored stored: SQLValue, as valueType: any AttributeValue.Type) -> Bool {
        guard let decoded = valueType.init(storedValue: stored), let expected = try? decoded.makeStoredValue() else { return false }
        guard let unwrapped = unwrapped(value) else { return expected.isNull }
        guard let attributeValue = unwrapped as? any AttributeValue, let returned = try? attributeValue.makeStoredValue() else {
            return false
        }
        return SQLValue.identical(returned, expected)
    }

    private static func unwrapped(_ value: Any?) -> Any? {
        guard let value else { return nil }
        if let optional = value as? OptionalProtocol { return unwrapped(optional.wrappedAny) }
        return value
    }

    private static func edgeCases(of type: AttributeType) -> [SQLValue] {
        switch type {
        case .boolean:
            return [.integer(0), .integer(1)]
        case .integer, .integer64, .integer32, .integer16:
            return [0, 1, -1, 2, 3, 7, 42, 100, 255, 1000, -1000, Int64(Int16.max), Int64(Int16.min), Int64(Int32.max),
                    Int64(Int32.min), Int64.max, Int64.min].map { .integer($0) }
        case .double, .float:
            return [0, 1, -1, 0.5, -2.5, 3.25, 100, 1e9, -1e9].map { .real($0) }
        case .date:
            return [0, 1, -1, 1e9, -1e9, 7.5e8, Date.distantPast.timeIntervalSinceReferenceDate,
                    Date.distantFuture.timeIntervalSinceReferenceDate].map { .real($0) }
        case .string:
            return ["", " ", "a", "A", "Foundation", "FOUNDATION", "foundation", "  padded  ", "two words", "Straße", "éclair",
                    "Éclair", "10", "-1", "0", "line\nbreak", "😀"].map { .text($0) }
        case .binary:
            return [Data(), Data([0]), Data([1, 2, 3]), Data([255, 254])].map { .blob($0) }
        case .uuid:
            return [Data(repeating: 0, count: 16), Data(1...16), Data(repeating: 255, count: 16)].map { .blob($0) }
        case .uri:
            return ["https://example.com/a", "https://example.com/A?q=1", "file:///tmp/x", "relative/path"].map { .text($0) }
        case .json:
            return []
        }
    }

    /// The stored values of every case of an enum (or an optional one) that is `CaseIterable`.
    private static func enumCases(of valueType: any AttributeValue.Type) -> [SQLValue] {
        let type = (valueType as? any OptionalWrappedType.Type)?.wrappedType ?? valueType
        guard let iterable = type as? any CaseIterable.Type else { return [] }
        return storedCases(of: iterable)
    }

    private static func storedCases<T: CaseIterable>(of type: T.Type) -> [SQLValue] {
        T.allCases.prefix(64).compactMap { try? ($0 as? any AttributeValue)?.makeStoredValue() }
    }
}
