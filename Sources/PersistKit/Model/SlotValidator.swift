/// One attribute's declared rules, ready to check values at save: made once per entity, so a
/// save does not copy the attribute's description for every object.
final class SlotValidator: Sendable {
    /// The attribute's slot in each object's storage.
    let slot: Int
    let attribute: AttributeDescription
    let entityName: String

    init(attribute: AttributeDescription, entityName: String) {
        slot = attribute.index
        self.attribute = attribute
        self.entityName = entityName
    }

    /// The rules `value` breaks, one sentence each; at once empty when it breaks none. A value
    /// kept in a file is judged by the size its reference records (see `ExternalReference`).
    func problems(with value: SQLValue) -> [String] {
        if attribute.allowsExternalStorage, let reference = ExternalReference(value) {
            return attribute.validation.lengthProblems(reference.byteCount, unit: "byte", key: entityName + "." + attribute.name)
        }
        if attribute.validation.accepts(value) { return [] }
        return attribute.validation.problems(with: value, of: attribute, in: entityName)
    }
}
