@_spi(Reflection) import Swift
import Synchronization

/// Where each `@Attribute` wrapper of an entity's class keeps its slot, in bytes from the
/// start of an instance, in slot order; empty when they could not be found.
///
/// A wrapper cannot learn its own name, and finding its slot from the key path the compiler
/// passes to every read costs a key-path instantiation and a table lookup per read. Instead,
/// each new object's wrappers are given their slots once, when the object is made: a few
/// stores, after which a read is a field load.
struct AttributeFieldOffsets: Sendable {
    /// A wrapper field of a class: its name (`_title`), where its slot is, its value type's identity.
    struct Field: Sendable {
        let name: String
        let slotOffset: Int
        let valueType: ObjectIdentifier
    }

    /// A slot value meaning "this wrapper names no attribute of the object's entity" (-1 means
    /// "not given yet").
    static let noSlot = -2

    private let offsets: [Int]

    /// No offsets: objects find their slots when first read (``ManagedObject/installAttributeSlots()``).
    static let none = AttributeFieldOffsets(offsets: [])

    private init(offsets: [Int]) {
        self.offsets = offsets
    }

    /// The offsets of `objectClass`'s wrappers when they are exactly the entity's attributes,
    /// in slot order; `none` otherwise (which only costs speed).
    init(objectClass: ManagedObject.Type, attributes: [AttributeDescription], valueTypes: [(any AttributeValue.Type)?]) {
        let fields = Self.fields(of: objectClass)
        guard fields.count == attributes.count, valueTypes.count == attributes.count,
              fields.indices.allSatisfy({ Self.field(fields[$0], matches: attributes[$0], valueTypes[$0], slot: $0) }) else {
            self.offsets = []
            return
        }
        self.offsets = fields.map(\.slotOffset)
    }

    var isEmpty: Bool { offsets.isEmpty }

    /// Writes each wrapper's slot into a new object of exactly the class the offsets were
    /// found for (its subclasses' wrappers are initialized: it is called from the root
    /// initializer).
    @inline(__always)
    func install(in object: ManagedObject) {
        let base = Unmanaged.passUnretained(object).toOpaque()
        for slot in offsets.indices {
            (base + offsets[slot]).storeBytes(of: slot, as: Int.self)
        }
    }

    /// Gives the wrappers of an object that was not given its slots when made (its class is
    /// not its entity's) their slots: the n-th wrapper is the entity's n-th attribute when
    /// the names and types agree, else it has none.
    static func installMatching(in object: ManagedObject, entity: EntityDescription) {
        let fields = Self.fields(of: type(of: object))
        let base = Unmanaged.passUnretained(object).toOpaque()
        let isEntityClass = entity.isClassBacked && isSubclass(type(of: object), of: entity.objectClass)
        for (index, field) in fields.enumerated() {
            let matches = isEntityClass && index < entity.attributes.count && index < entity.valueTypes.count
                && Self.field(field, matches: entity.attributes[index], entity.valueTypes[index], slot: index)
            (base + field.slotOffset).storeBytes(of: matches ? index : noSlot, as: Int.self)
        }
    }

    private static func field(_ field: Field, matches attribute: AttributeDescription,
                              _ valueType: (any AttributeValue.Type)?, slot: Int) -> Bool {
        guard attribute.index == slot, field.name == "_" + attribute.name || field.name == attribute.name,
              let valueType else { return false }
        return ObjectIdentifier(valueType) == field.valueType
    }

    private static func isSubclass(_ objectClass: AnyClass, of ancestor: AnyClass) -> Bool {
        var current: AnyClass? = objectClass
        while let candidate = current {
            if ObjectIdentifier(candidate) == ObjectIdentifier(ancestor) { return true }
            current = _getSuperclass(candidate)
        }
        return false
    }

    private static let cache = Mutex<[ObjectIdentifier: [Field]]>([:])

    /// A class's `@Attribute` wrapper fields, superclass's first, each class's in declaration
    /// order: the order `EntityReflection` gives slots in (both read the runtime's field
    /// metadata). Empty when the runtime cannot describe a field; found once per class.
    static func fields(of objectClass: ManagedObject.Type) -> [Field] {
        let key = ObjectIdentifier(objectClass)
        if let known = cache.withLock({ $0[key] }) { return known }
        var found: [Field] = []
        // `.classType` (a `static var`, which strict concurrency refuses to read): class types
        // are described only when asked for explicitly.
        let complete = _forEachField(of: objectClass, options: _EachFieldOptions(rawValue: 1)) { name, offset, type, _ in
            if let wrapper = type as? any AttributeWrapper.Type, let slotOffset = wrapper.slotFieldOffset,
               (offset + slotOffset) % MemoryLayout<Int>.alignment == 0 {
                found.append(Field(name: String(cString: name), slotOffset: offset + slotOffset, valueType: ObjectIdentifier(wrapper.valueType)))
            }
            return true
        }
        let fields = complete ? found : []
        cache.withLock { $0[key] = fields }
        return fields
    }
}
