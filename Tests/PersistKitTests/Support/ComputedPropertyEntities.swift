import Foundation
import PersistKit

enum CPGenre: String, AttributeValue, CaseIterable, Codable {
    case fiction, poetry, essay
}

/// A genre without `CaseIterable`: the key path check only knows its declared default.
enum CPFormat: String, AttributeValue {
    case hardcover, paperback
}

/// Books with computed properties of every shape a predicate, sort or section key must refuse
/// (issue 25, item 1): each reads stored values and returns something else.
final class CPBook: ManagedObject {
    @Attribute var title: String
    @Attribute var subtitle: String?
    @Attribute var pages = 0
    @Attribute var genre: CPGenre = .fiction
    @Attribute var format: CPFormat = .paperback
    @Attribute var published: Date?
    @Relationship(inverse: \CPAuthor.books) var author: CPAuthor?
    @Relationship(inverse: \CPTag.books) var tags: Set<CPTag>

    /// The same type as the one attribute it reads.
    var shout: String { title.uppercased() }
    /// The attribute itself but for one value.
    var displayTitle: String { title.isEmpty ? "Untitled" : title }
    /// Another type than the attribute it reads.
    var titleLength: Int { title.count }
    /// Several attributes.
    var heading: String { title + ": " + (subtitle ?? "") }
    /// One attribute read twice.
    var twice: String { title + title }
    /// A number computed from a number.
    var doubledPages: Int { pages * 2 }
    /// An optional computed from an optional.
    var publishedOrLater: Date? { published ?? .distantFuture }
    /// An enum that depends on another attribute.
    var shelf: CPGenre { pages > 500 ? .essay : genre }
    /// An enum read from a relationship's object.
    var authorGenre: CPGenre? { author?.favourite }
    /// Through a relationship, transformed.
    var authorShout: String? { author?.name.uppercased() }
    /// Through a relationship, unchanged: still a property of its own, not the relationship's.
    var authorName: String? { author?.name }
    /// Through a relationship, with a default in place of nil.
    var byline: String { author?.name ?? "anonymous" }
    /// A relationship's object, under another name.
    var writer: CPAuthor? { author }
    /// A to-many, under another name.
    var labels: Set<CPTag> { tags }
    /// A to-many's count, adjusted.
    var labelCount: Int { tags.count + 1 }
    /// Reads nothing stored.
    var constant: String { "Foundation" }
    /// Settable, and still not the attribute it writes.
    var trimmedTitle: String {
        get { title.trimmingCharacters(in: .whitespaces) }
        set { title = newValue }
    }
}

final class CPAuthor: ManagedObject {
    @Attribute var name: String
    @Attribute var favourite: CPGenre = .poetry
    @Relationship var books: Set<CPBook>

    var shout: String { name.uppercased() }
}

final class CPTag: ManagedObject {
    @Attribute var name: String
    @Relationship var books: Set<CPBook>
}
