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
}
