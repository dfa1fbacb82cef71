/// Declares a relationship of a ``ManagedObject`` subclass: a to-one (`Project?`), a to-many
/// (`Set<Tag>`) or an ordered to-many (`[Step]`).
///
/// ```swift
/// final class TaskItem: ManagedObject {
///     @Attribute var name: String
///     @Relationship(inverse: \Project.tasks) var project: Project?
///     @Relationship(inverse: \Tag.tasks) var tags: Set<Tag>
/// }
/// final class Project: ManagedObject {
///     @Attribute(.unique) var name: String
///     @Relationship(deleteRule: .cascade) var tasks: Set<TaskItem>   // inverse: TaskItem.project
/// }
/// task.project = home          // home.tasks now contains task, at once
/// home.$tasks.insert(other)    // links one more task without making the set (RelationshipLinks)
/// ```
///
/// Name the inverse on one side (`inverse:`); the other side finds it. A relationship without
/// an inverse must say so: `@Relationship(inverse: .none)`. Reading a relationship of a fetched
/// object loads it then (a fault); a fetch request's `relationshipKeyPathsForPrefetching` loads it
/// for every fetched object in one query. An object that outlives its context (a function
/// returned what it fetched in a context of its own) keeps reading them through a successor
/// context its freed one handed it to. An object its context let go on purpose (`reset()`, or
/// its deletion saved) reads them as empty, and ``ManagedObject/relatedObjects(forKey:)``
/// throws `.misuse` naming it (see <doc:Relationships>).
///
/// ## What an edit costs
///
/// A to-many property is a value, read, changed and assigned back: the context finds what
/// changed by comparing, one pass over a list of *n*. `project.tasks.insert(task)` and
/// `.remove(task)` cost O(*n*) (the set is copied, then compared with the one it was);
/// `plan.steps.append(step)` costs O(*n*) identity comparisons, without a copy;
/// `plan.steps.insert(step, at: i)`, `.remove(at: i)` and reorders shift the array and assign
/// the whole list, and the save writes every object whose position changed. The projected
/// value changes one link in O(1) amortised, writing one row: `project.$tasks.insert(task)`,
/// `.remove(task)`, `plan.$steps.insert(step)` (an append); `plan.$steps.remove(step)` also
/// shifts the array, O(*n*), and leaves the others' stored positions. The table in
/// <doc:Relationships> gives each case.
@propertyWrapper
public struct Relationship<Value: RelationshipValue> {
    let inverse: RelationshipDeclaration.Inverse
    let deleteRule: DeleteRule
    let minimumCount: Int?
    let maximumCount: Int?
    /// The relationship's name in the previous model version, when this version renamed it.
    let originalName: String?
    /// Set on the entity's probe object only, to find which wrapper a storage key path names.
    var probeMark = false

    /// A relationship whose inverse is named on the other side.
    ///
    /// - Parameters:
    ///   - deleteRule: What deleting this object does to the related ones (`.nullify` by default).
    ///   - minimumCount: The fewest related objects allowed at save (1 makes a to-one required).
    ///   - maximumCount: The most related objects allowed at save.
    ///   - originalName: The relationship's name in the previous model version, when this
    ///     version renamed it: a migration keeps its links (see <doc:MigratingAModel>).
    public init(deleteRule: DeleteRule = .nullify, minimumCount: Int? = nil, maximumCount: Int? = nil,
                originalName: String? = nil) {
        inverse = .unspecified
        self.originalName = originalName
        self.deleteRule = deleteRule
        self.minimumCount = minimumCount
        self.maximumCount = maximumCount
    }

    /// A relationship with its inverse: `@Relationship(inverse: \Project.tasks) var project: Project?`.
    ///
    /// `originalName:` names the relationship as the previous model version did, when this
    /// version renamed it: `@Relationship(inverse: \Project.tasks, originalName: "folder")`.
    public init<Inverse: RelationshipValue>(inverse: KeyPath<Value.Destination, Inverse>, deleteRule: DeleteRule = .nullify,
                                            minimumCount: Int? = nil, maximumCount: Int? = nil, originalName: String? = nil) {
        self.inverse = .keyPath(inverse)
        self.originalName = originalName
        self.deleteRule = deleteRule
        self.minimumCount = minimumCount
        self.maximumCount = maximumCount
    }

    /// A one-way relationship: `@Relationship(inverse: .none) var owner: Person?`.
    public init(inverse: RelationshipInverse, deleteRule: DeleteRule = .nullify, minimumCount: Int? = nil,
                maximumCount: Int? = nil, originalName: String? = nil) {
        self.inverse = .none
        self.originalName = originalName
        self.deleteRule = deleteRule
        self.minimumCount = minimumCount
        self.maximumCount = maximumCount
    }

    /// Relationships live in their object's context; this accessor is never used.
    @available(*, unavailable, message: "@Relationship can only be used in ManagedObject subclasses")
    public var wrappedValue: Value {
        get { Value.relationshipValue([]) }
        // swiftlint:disable:next unused_setter_value
        set { _ = newValue }
    }

    /// A relationship's links are changed through its object: `project.$tasks.insert(task)`
    /// (see ``RelationshipLinks``); this accessor is never used.
    @available(*, unavailable, message: "@Relationship can only be used in ManagedObject subclasses")
    public var projectedValue: RelationshipLinks<Value.Destination> {
        preconditionFailure("@Relationship can only be used in ManagedObject subclasses")
    }

    /// The relationship's links, one object at a time: `project.$tasks.insert(task)` links one
    /// object without making the set of those it holds (see ``RelationshipLinks``).
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        projected projectedKeyPath: KeyPath<Object, RelationshipLinks<Value.Destination>>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Relationship<Value>>
    ) -> RelationshipLinks<Value.Destination> {
        RelationshipLinks(object: object, index: object.entity.relationshipIndex(for: storageKeyPath))
    }

    /// Reads and writes the relationship through the object's context, which keeps the inverse.
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Relationship<Value>>
    ) -> Value {
        get {
            let index = object.entity.relationshipIndex(for: storageKeyPath)
            if object.isProbe {
                KeyPathProbe.noteRelationshipRead(object, index: index)
                // A key path being read through relationships goes on to the destination's probes.
                let followed = index >= 0 ? KeyPathProbe.follow(object, relationship: index, destination: Value.Destination.self,
                                                                kind: Value.relationshipKind, keyPath: wrappedKeyPath) : nil
                return Value.relationshipValue(followed ?? [])
            }
            guard index >= 0 else { return Value.relationshipValue([]) }
            object.noteRelationshipRead(index)
            if Value.relationshipKind == .toOne {
                return Value.relationshipValue(toOne: object.relatedObject(at: index))
            }
            return object.relatedValue(at: index)
        }
        set {
            let index = object.entity.relationshipIndex(for: storageKeyPath)
            guard index >= 0, !object.isProbe else { return }
            if Value.relationshipKind == .toOne {
                object.setRelatedObject(newValue.toOneObject, at: index)
            } else {
                object.setRelatedValue(newValue, at: index)
            }
        }
        // `plan.steps.append(step)` changes the array read in place (no copy of the list) and
        // assigns it back, which links just the steps appended.
        _modify {
            let index = object.entity.relationshipIndex(for: storageKeyPath)
            var value = Self[_enclosingInstance: object, wrapped: wrappedKeyPath, storage: storageKeyPath]
            if Value.relationshipKind == .orderedToMany, index >= 0, !object.isProbe { object.releaseRelatedValue(at: index) }
            yield &value
            Self[_enclosingInstance: object, wrapped: wrappedKeyPath, storage: storageKeyPath] = value
        }
    }
}

extension Relationship: RelationshipWrapper {
    static var destinationClass: ManagedObject.Type { Value.Destination.self }
    static var kind: RelationshipKind { Value.relationshipKind }
    func declaration(named name: String) -> RelationshipDeclaration {
        RelationshipDeclaration(name: name, destination: .objectClass(Value.Destination.self), kind: Value.relationshipKind,
                                inverse: inverse, deleteRule: deleteRule, minimumCount: minimumCount, maximumCount: maximumCount,
                                originalName: originalName)
    }
}
