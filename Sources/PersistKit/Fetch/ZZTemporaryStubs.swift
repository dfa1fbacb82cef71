enum TextMatchOperator: Equatable { case equal, contains, beginsWith, endsWith, like }
enum TextMatcher {
    static func matches(_ op: TextMatchOperator, value: UnsafeBufferPointer<UInt8>, pattern: UnsafeBufferPointer<UInt8>, options: StringComparisonOptions) -> Bool { false }
    static func matches(_ op: TextMatchOperator, value: String, pattern: String, options: StringComparisonOptions) -> Bool { false }
}
enum TextCollation: Sendable, Equatable { case binary, caseInsensitive, localizedStandard
    func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int32 { 0 }
}
