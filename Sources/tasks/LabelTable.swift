import TaskModel

/// The lines of `tasks projects` and `tasks tags`: each name with its open and done counts,
/// in aligned columns.
///
/// ```
/// +Home     3 open  1 done
/// +Work    12 open  0 done
/// ```
enum LabelTable {
    /// One line per summary; `prefix` is `+` for projects, `#` for tags.
    static func lines(_ summaries: [LabelSummary], prefix: String, style: Style) -> [String] {
        let names = summaries.map { prefix + TerminalText.visible($0.name) }
        let nameWidth = names.map(DisplayWidth.of).max() ?? 0
        let openWidth = summaries.map { NumberText.grouped($0.open).count }.max() ?? 0
        let doneWidth = summaries.map { NumberText.grouped($0.done).count }.max() ?? 0
        return zip(names, summaries).map { name, summary in
            let open = pad(NumberText.grouped(summary.open), openWidth) + " open"
            let done = pad(NumberText.grouped(summary.done), doneWidth) + " done"
            return name + String(repeating: " ", count: nameWidth - DisplayWidth.of(name)) + "  " + open + "  "
                + style.dim(done)
        }
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// The JSON of `--json`: `{"projects": [{"name": "Home", "open": 3, "done": 1}]}`.
    struct Document: Encodable {
        struct Entry: Encodable {
            let name: String
            let open: Int
            let done: Int
        }

        let key: String
        let entries: [Entry]

        init(key: String, _ summaries: [LabelSummary]) {
            self.key = key
            entries = summaries.map { Entry(name: $0.name, open: $0.open, done: $0.done) }
        }

        private struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(entries, forKey: Key(stringValue: key))
        }
    }
}
