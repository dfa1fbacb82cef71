import Foundation
import PersistKit
import PersistKitTestSupport
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

    /// The stage's work on a store of version 2, the model it runs in: tags made once, text
    /// unchanged.
    func testTheStageTurnsHashtagsIntoTags() throws {
        let directory = TemporaryDirectory(prefix: "taskmodel-hashtags")
        let url = directory.file("tasks.sqlite")
        do {
            let context = try PersistentContainer(model: try TaskModelV2.makeModel(), store: .sqlite(url)).newContext()
            let kept = TaskModelV2.Tag(context: context)
            kept.name = "kept"
            for (index, (name, notes)) in [("Buy milk #errands", "oat #Shop"), ("Call the bank #ERRANDS #phone", nil),
                                           ("Plain", "no tags, C# only"), ("Already #home", nil)].enumerated() {
                let task = TaskModelV2.TaskItem(context: context)
                task.name = name
                task.notes = notes
                task.createdAt = Date(timeIntervalSince1970: 1_700_000_000 + Double(index))
                if name.hasPrefix("Already") { task.tags = [kept] }
            }
            try context.save()
            let made = try TaskModelMigration.tagHashtags(in: context)
            try context.save()
            XCTAssertEqual(made, 4, "errands, Shop, phone, home")
        }
        let store = try TaskStore(url: url)
        let names = Dictionary(uniqueKeysWithValues: try store.tasks().map { ($0.name, $0.tagNames) })
        XCTAssertEqual(names["Buy milk #errands"], ["errands", "Shop"])
        XCTAssertEqual(names["Call the bank #ERRANDS #phone"], ["errands", "phone"], "the first spelling met is kept")
        XCTAssertEqual(names["Plain"], [])
        XCTAssertEqual(names["Already #home"], ["home", "kept"])
        XCTAssertEqual(try store.tasks().first { $0.name == "Buy milk #errands" }?.notes, "oat #Shop")
        XCTAssertEqual(try store.tagSummaries().map(\.name), ["errands", "home", "kept", "phone", "Shop"])
    }
}
