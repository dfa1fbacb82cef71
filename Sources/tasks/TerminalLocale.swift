import Foundation

/// The locale `tasks` writes dates in, and whether its output must be plain ASCII, from the
/// POSIX locale variables: `LC_ALL`, else `LC_TIME`, else `LANG` (the first that is set and not
/// empty); none set is the C locale, as POSIX says.
///
/// - `C`, `POSIX` and any locale whose character set is not UTF-8 (`en_US.ISO-8859-1`): plain
///   ASCII, dates in Foundation's default English (`26 Nov 2026 at 6:25 PM`, with an ASCII
///   space where Foundation puts a narrow no-break space before AM and PM).
/// - `C.UTF-8`: Foundation's default English, Unicode allowed.
/// - `de_DE.UTF-8` and the like: that locale's date styles (`26.11.2026, 18:25`), which
///   Foundation on Linux does not take from the environment by itself.
struct TerminalLocale {
    /// The locale dates are formatted in.
    let locale: Locale
    /// Whether every character written must be ASCII.
    let isASCII: Bool

    /// This process's, read once.
    static let current = TerminalLocale(environment: ProcessInfo.processInfo.environment)

    init(locale: Locale, isASCII: Bool) {
        self.locale = locale
        self.isASCII = isASCII
    }

    init(environment: [String: String]) {
        let name = ["LC_ALL", "LC_TIME", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? "C"
        // language_TERRITORY.codeset@modifier
        let beforeModifier = name.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = beforeModifier.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let language = String(parts.first ?? "")
        let codeset = parts.count > 1 ? parts[1].lowercased().filter { $0 != "-" && $0 != "_" } : ""
        let isUTF8 = codeset == "utf8"
        if language == "C" || language == "POSIX" || language.isEmpty {
            self.init(locale: .current, isASCII: !isUTF8)
        } else {
            self.init(locale: isUTF8 ? Locale(identifier: language) : .current, isASCII: !isUTF8)
        }
    }

    /// A date formatter's output as this locale may print it: in an ASCII locale, the spaces
    /// Foundation's formatters put in (narrow and ordinary no-break spaces, thin spaces) become
    /// plain ones, and any other character outside ASCII a `?`. (Only for formatted dates: a
    /// task's own text is printed as it is.)
    func formatted(_ text: String) -> String {
        guard isASCII, !text.allSatisfy(\.isASCII) else { return text }
        return String(text.unicodeScalars.map { scalar -> Character in
            if scalar.isASCII { return Character(scalar) }
            return scalar.properties.isWhitespace ? " " : "?"
        })
    }

    /// The same locale, printing plain ASCII (`tasks stats --ascii`).
    var asciiOnly: TerminalLocale { TerminalLocale(locale: locale, isASCII: true) }

    /// One glyph or another: the Unicode one, or its ASCII stand-in in an ASCII locale.
    func glyph(_ unicode: String, ascii: String) -> String {
        isASCII ? ascii : unicode
    }
}
