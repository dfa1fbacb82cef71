import Foundation
@testable import PersistKit

/// The seeds' Contactually app: a cache of contacts in buckets, wiped and reloaded from the
/// server every launch. A bucket's contacts go with it (cascade). Each contact also keeps its
/// bucket's name, as the server sends it, which its list is sectioned by.
final class ContactBucket: ManagedObject {
    @Attribute(.unique) var name: String
    @Relationship(deleteRule: .cascade) var contacts: Set<Contact>
}

final class Contact: ManagedObject {
    @Attribute var name: String
    @Attribute var email: String
    @Attribute var bucketName: String
    @Relationship(inverse: \ContactBucket.contacts) var bucket: ContactBucket?
}
