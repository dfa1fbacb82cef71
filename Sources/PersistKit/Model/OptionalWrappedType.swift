/// The wrapped type of an optional type held as a metatype (`Genre?` gives `Genre`), to ask
/// what kind of value an optional attribute holds.
protocol OptionalWrappedType {
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalWrappedType {
    static var wrappedType: Any.Type { Wrapped.self }
}
