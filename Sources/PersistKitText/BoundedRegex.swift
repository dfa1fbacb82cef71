import Foundation

/// A regular expression (ICU syntax, Foundation's `NSRegularExpression`) matched against whole
/// values with a bound on the work each match may do, so that a pattern or a value from
/// outside cannot hang a thread.
///
/// ICU backtracks: `(a+)+$` against forty `a`s and a `b` takes about 2^40 steps. Every match
/// here may take at most ``baseSteps`` steps of ICU's matching engine plus ``stepsPerUnit``
/// for each UTF-16 unit of the value; beyond that it stops and answers
/// ``Outcome/exceededLimit(steps:)``. ICU reports progress every ``stepsPerReport`` steps (the
/// unit of its own `uregex_setTimeLimit`), through `NSRegularExpression`'s `.reportProgress`;
/// the bound counts those reports, so it is the same on every machine, however fast. A
/// match that ICU itself cannot finish (its backtracking stack is full) answers
/// ``Outcome/failed``, never a silent "no match".
///
/// ```swift
/// let regex = try BoundedRegex(pattern: "(a+)+$", caseInsensitive: false)
/// regex.wholeMatch(String(repeating: "a", count: 40) + "b") // .exceededLimit(steps: 1000000)
/// ```
package final class BoundedRegex: @unchecked Sendable {
    // @unchecked Sendable: immutable after init (no lock needed); NSRegularExpression is
    // documented thread-safe.

    /// What one match found.
    package enum Outcome: Equatable, Sendable {
        case matched
        case unmatched
        /// The match was stopped after `steps` steps, its bound for this value.
        case exceededLimit(steps: Int)
        /// ICU could not finish the match (its backtracking stack overflowed).
        case failed
    }

    /// The steps between two of ICU's progress reports.
    package static let stepsPerReport = 10_000
    /// The steps every match may take, whatever the value's length.
    package static let baseSteps = 1_000_000
    /// The further steps a match may take per UTF-16 unit of the value: far more than a
    /// pattern that runs in linear time needs.
    package static let stepsPerUnit = 100

    private let expression: NSRegularExpression

    /// Compiles `pattern`, anchored to match whole values only (`\A(?:pattern)\z`).
    ///
    /// - Throws: Foundation's error when `pattern` is not a valid regular expression (on its
    ///   own: `a)|(b` is refused although the anchored form would compile).
    package init(pattern: String, caseInsensitive: Bool) throws {
        let flags: NSRegularExpression.Options = caseInsensitive ? [.caseInsensitive] : []
        // Foundation refuses an empty pattern alone; anchored, it matches the empty string.
        if !pattern.isEmpty { _ = try NSRegularExpression(pattern: pattern, options: flags) }
        expression = try NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z", options: flags)
    }

    /// The most steps a match against a value of `units` UTF-16 units may take.
    package static func stepLimit(units: Int) -> Int {
        let (extra, overflow) = units.multipliedReportingOverflow(by: stepsPerUnit)
        return overflow ? Int.max : baseSteps.addingReportingOverflow(extra).partialValue
    }

    /// Whether the whole of `value` matches, within the step bound.
    package func wholeMatch(_ value: String) -> Outcome {
        let units = value.utf16.count
        let reports = BoundedRegex.stepLimit(units: units) / BoundedRegex.stepsPerReport
        var outcome = Outcome.unmatched
        var progress = 0
        expression.enumerateMatches(in: value, options: [.reportProgress, .reportCompletion],
                                    range: NSRange(location: 0, length: units)) { result, flags, stop in
            if result != nil {
                outcome = .matched
                stop.pointee = true
            } else if flags.contains(.completed) {
                if flags.contains(.internalError) { outcome = .failed }
            } else {
                progress += 1
                if progress > reports {
                    outcome = .exceededLimit(steps: reports * BoundedRegex.stepsPerReport)
                    stop.pointee = true
                }
            }
        }
        return outcome
    }
}
