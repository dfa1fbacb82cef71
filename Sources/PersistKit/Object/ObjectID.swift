import Foundation

/// The identity of a managed object: its entity, its store, and its primary key (or, before its
/// first save, a temporary number).
///
/// `ObjectID` is `Sendable`: pass it between threads and actors, then ask each context for its
/// own instance with ``ManagedObjectContext/object(with:)``.
///
/// ```swift
/// let id = task.objectID                 // persistkit://<store>/Task/p12
/// let same = try otherContext.existingObject(with: id)
/// ```
public struct ObjectID: Sendable, Hashable {
    // No reference-counted field: an ID is copied wherever objects go (identity maps, change
    // sets, notifications), and two Strings here cost a retain and a release per copy. The
    // (entity, store) pair is interned in ``ObjectIDRegistry``, so equal pairs have equal scopes
    // and the synthesized `==` and `hash(into:)` compare exactly what they did before.

    /// The interned (entity name, store identifier) pair.
    let scope: Scope
    /// The primary key (permanent) or the temporary number (temporary).
    let key: Int64
    /// Whether the ID is temporary: the object has not been saved yet.
    public let isTemporary: Bool

    /// An ID in a scope resolved before (the hot paths make one scope per entity and store).
    @inline(__always)
    init(scope: Scope, key: Int64, isTemporary: Bool) {
        self.scope = scope
        self.key = key
        self.isTemporary = isTemporary
    }

    /// An ID for a pair named by text: it looks the pair up in the process-wide registry under
    /// a lock, so code that makes many IDs of one entity makes a ``Scope`` once instead.
    init(entityName: String, storeIdentifier: String, key: Int64, isTemporary: Bool) {
        self.init(scope: Scope(entityName: entityName, storeIdentifier: storeIdentifier), key: key, isTemporary: isTemporary)
    }

    /// The name of the object's entity.
    public var entityName: String { scope.entityName }

    /// The UUID of the store the object lives in.
    public var storeIdentifier: String { scope.storeIdentifier }

    /// The primary key of a saved object, or nil for a temporary ID.
    ///
    /// ```swift
    /// try context.save()
    /// print("saved as #\(task.objectID.primaryKey ?? 0)")
    /// ```
    public var primaryKey: Int64? { isTemporary ? nil : key }

    /// A stable URI form: `persistkit://STORE/ENTITY/p12` (permanent) or `.../t3` (temporary).
    ///
    /// ```swift
    /// UserDefaults.standard.set(task.objectID.uriRepresentation, forKey: "lastOpened")
    /// ```
    public var uriRepresentation: URL {
        let names = scope.names
        var components = URLComponents()
        components.scheme = "persistkit"
        components.host = names.storeIdentifier
        components.path = "/" + names.entityName + "/" + (isTemporary ? "t" : "p") + String(key)
        return components.url ?? URL(fileURLWithPath: "/")
    }

    /// Parses a URI made by ``uriRepresentation``; nil when the URI is not one.
    ///
    /// ```swift
    /// if let url = UserDefaults.standard.url(forKey: "lastOpened"), let id = ObjectID(uriRepresentation: url) {
    ///     let task = context.object(with: id) as? TaskItem
    /// }
    /// ```
    public init?(uriRepresentation uri: URL) {
        guard uri.scheme == "persistkit", let host = uri.host, !host.isEmpty else { return nil }
        let parts = uri.path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == 2, let last = parts.last, let kind = last.first,
              kind == "p" || kind == "t", let key = Int64(last.dropFirst()) else { return nil }
        self.init(entityName: String(parts[0]), storeIdentifier: host, key: key, isTemporary: kind == "t")
    }
}

extension ObjectID: CustomStringConvertible {
    /// The URI form, as text.
    public var description: String { uriRepresentation.absoluteString }
}
