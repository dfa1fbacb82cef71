/// Numbers as `tasks` shows them to people: grouped by thousands the same way in every locale
/// and every message (`50,002`), with the noun in the singular or plural.
enum NumberText {
    /// `50,002`.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        let body = digits.enumerated().map { index, digit in
            index > 0 && (digits.count - index) % 3 == 0 ? ",\(digit)" : "\(digit)"
        }.joined()
        return number < 0 ? "-" + body : body
    }

    /// `1 task`, `50,002 tasks`: `noun` is the singular; the plural adds an s.
    static func count(_ number: Int, _ noun: String) -> String {
        grouped(number) + " " + noun + (number == 1 ? "" : "s")
    }

    /// A size as people read it, in decimal units: `812 bytes`, `48.2 KB`, `5.0 MB`, `1.2 GB`.
    static func bytes(_ count: Int) -> String {
        guard count >= 1_000 else { return NumberText.count(count, "byte") }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(count) / 1_000
        var unit = 0
        // 999.96 KB would round to "1000.0 KB": it is shown as 1.0 MB.
        while value >= 999.95, unit < units.count - 1 {
            value /= 1_000
            unit += 1
        }
        return String(format: "%.1f", value) + " " + units[unit]
    }
}
