import Foundation

/// A value of an `.externalStorage` attribute read from its file, kept by its object with the
/// reference it was read for: valid while the object's slot holds that reference.
struct LoadedExternalValue {
    /// The reference's TEXT, as the slot holds it.
    let reference: String
    let data: Data
}
