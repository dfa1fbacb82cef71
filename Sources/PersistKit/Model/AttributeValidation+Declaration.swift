import Foundation

extension AttributeValidation {
    /// What an attribute's options declare: whether it is unique, and its rules.
    ///
    /// - Throws: ``PersistError`` `.invalidModel` naming the attribute for a rule declared
    ///   twice, a negative length, a lower bound above the upper one, a NaN or unencodable
    ///   bound, or a pattern that is not a regular expression.
    static func declared(by options: [AttributeOptionKind], entity: String,
                         attribute: String) throws -> (isUnique: Bool, validation: AttributeValidation) {
        var isUnique = false
        var rules = AttributeValidation()
        func refuse(_ problem: String) -> PersistError {
            PersistError(.invalidModel, "\(entity).\(attribute) \(problem)", entity: entity, attribute: attribute)
        }
        func setOnce<T>(_ slot: inout T?, _ value: T?, _ name: String) throws {
            guard let value else { return }
            if slot != nil { throw refuse("declares its \(name) twice") }
            slot = value
        }
        for option in options {
            switch option {
            case .unique:
                isUnique = true
            case .length(let minimum, let maximum):
                if let negative = [minimum, maximum].compactMap({ $0 }).first(where: { $0 < 0 }) {
                    throw refuse("has a negative length bound (\(negative))")
                }
                try setOnce(&rules.minimumLength, minimum, "minimum length")
                try setOnce(&rules.maximumLength, maximum, "maximum length")
            case .bounds(let minimum, let maximum):
                if [minimum, maximum].contains(where: { if case .real(let x)? = $0 { return x.isNaN } else { return false } }) {
                    throw refuse("has a NaN bound")
                }
                try setOnce(&rules.minimum, minimum, "minimum")
                try setOnce(&rules.maximum, maximum, "maximum")
            case .pattern(let pattern):
                guard compile(pattern) != nil else { throw refuse("has a pattern that is not a regular expression: \(pattern)") }
                if rules.pattern != nil { throw refuse("declares its pattern twice") }
                rules.pattern = pattern
            case .unencodableBound(let error):
                throw refuse("has a bound that cannot be encoded: \(error)")
            case .externalStorage:
                break   // where values are kept, not a rule (see `ExternalStorage.threshold(declaredBy:)`)
            }
        }
        if let low = rules.minimumLength, let high = rules.maximumLength, low > high {
            throw refuse("has a minimum length (\(low)) above its maximum length (\(high))")
        }
        if let low = rules.minimum, let high = rules.maximum, SQLValue.compare(low, high) > 0 {
            throw refuse("has a minimum (\(low)) above its maximum (\(high))")
        }
        return (isUnique, rules)
    }
}
