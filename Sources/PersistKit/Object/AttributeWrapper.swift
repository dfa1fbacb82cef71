import Foundation

/// What the model needs to know of an `@Attribute` found by reflection.
@usableFromInline
protocol AttributeWrapper {
    static var valueType: any AttributeValue.Type { get }
    var hasInitialValue: Bool { get }
    var optionKinds: [AttributeOptionKind] { get }
    /// Where the wrapper keeps its slot, in bytes from the wrapper's start.
    static var slotFieldOffset: Int? { get }
    var originalName: String? { get }
    func initialStoredValue() throws -> SQLValue
}
