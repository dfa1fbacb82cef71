import Foundation

/// The global identity of a synced object: a UUID, in its lowercase text form.
///
/// A local object's is name-based (RFC 9562 version 5, SHA-1) on its store's identifier, its
/// entity and its primary key, so it follows from the object and needs no write before the
/// push: a push tried again after a crash names the same objects, and no two stores (whose
/// identifiers are UUIDs themselves) can make the same one. An object that came from elsewhere
/// keeps the ID it came with (the identity table holds it).
enum GlobalID {
    /// The namespace of PersistKitSync's name-based IDs (a random UUID, fixed forever).
    static let namespace: [UInt8] = [0x6f, 0x1d, 0x8e, 0x42, 0x9b, 0x37, 0x4c, 0x0e, 0xa5, 0x61, 0x2f, 0x93, 0xd4, 0x7a, 0x10, 0xc8]

    /// The ID a local object gets when it first syncs.
    static func local(store: String, entity: String, key: Int64) -> String {
        name("\(store)/\(entity)/\(key)")
    }

    /// The version 5 UUID of `name` in `namespace` (PersistKitSync's own by default).
    static func name(_ name: String, in namespace: [UInt8] = namespace) -> String {
        var digest = SHA1.hash(namespace + Array(name.utf8))
        digest[6] = (digest[6] & 0x0f) | 0x50   // version 5
        digest[8] = (digest[8] & 0x3f) | 0x80   // RFC 9562 variant
        let bytes = Array(digest.prefix(16))
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
            .uuidString.lowercased()
    }
}
