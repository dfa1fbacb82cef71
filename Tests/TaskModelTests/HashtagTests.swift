import Foundation
import PersistKit
import TaskModel
import XCTest

/// Hashtags in names and notes, and the version 1 → 2 stage that makes them tags.
final class HashtagTests: XCTestCase {
    func testWhatIsAHashtag() {
        let cases: [(String, [String])] = [
            ("Buy milk #errands", ["errands"]),
            ("#home: fix the gate", ["home"]),
            ("Call #Bank about #fees, then #bank again", ["Bank", "fees"]),
            ("Follow up on #12 and #1st", ["1st"]),
            ("Learn C# and F#", []),
            ("See page.html#top or https://x.org/#anchor", []),
            ("&#38; is an ampersand", []),
            ("# Heading\n## Sub", []),
            ("#follow-up #later- #snake_case_", ["follow-up", "later", "snake_case"]),
            ("(#paren) \"#quoted\" ,#comma", ["paren", "quoted", "comma"]),
            ("#café #日本 #Straße", ["café", "日本", "Straße"]),
            ("##double", []),
            ("", []),
            ("#" + String(repeating: "x", count: 101), []),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(Hashtags.names(in: text), expected, text)
        }
        XCTAssertEqual(Hashtags.names(name: "Buy milk #errands", notes: "for #Errands and #home"), ["errands", "home"])
    }

    /// The stage's work on a store of the new model: tags made once, text unchanged.
    func testTheStageTurnsHashtagsIntoTags() throws {
        let fixture = try TaskStoreFixture()
        let store = fixture.store
        let milk = try store.add(name: "Buy milk #errands", notes: "oat #Shop", due: nil)
        let bank = try store.add(name: "Call the bank #ERRANDS #phone")
        let plain = try store.add(name: "Plain", notes: "no tags, C# only", due: nil)
        let tagged = try store.add(name: "Already #home", TaskChanges(addedTags: ["kept"]))
        let made = try TaskModelMigration.tagHashtags(in: store.context)
        try store.context.save()
        XCTAssertEqual(made, 4, "errands, Shop, phone, home")
        XCTAssertEqual(milk.tagNames, ["errands", "Shop"])
        XCTAssertEqual(bank.tagNames, ["errands", "phone"], "the first spelling met is kept")
        XCTAssertEqual(plain.tagNames, [])
        XCTAssertEqual(tagged.tagNames, ["home", "kept"])
        XCTAssertEqual(milk.name, "Buy milk #errands")
        XCTAssertEqual(milk.notes, "oat #Shop")
        let reopened = try fixture.reopen()
        XCTAssertEqual(try reopened.tagSummaries().map(\.name), ["errands", "home", "kept", "phone", "Shop"])
    }
}
