import Foundation
import TaskModel

/// The text of `tasks review`:
///
/// ```
/// Review of today, Sat, 21 Nov 2026
///
/// Done (2)
///   #5  [x] Pay rent
///   #6  [x] Fix the gate
///
/// Not done, to the backlog (1)
///   #2  [ ] Call mom
///
/// 2 of 3 planned tasks done (67%)
/// ```
///
/// A day reviewed already is one line: when, and what was recorded.
struct ReviewRenderer {
    let style: Style
    let dates: DateText
    let labels: TaskLabels

    func lines(for result: ReviewResult) -> [String] {
        let review = result.review
        let day = dates.dayHeading(review.day)
        guard result.isNew else {
            let at = CalendarDay(date: review.reviewedAt, calendar: dates.calendar) == review.day
                ? dates.time(review.reviewedAt) : dates.dayAndTime(review.reviewedAt)
            return [upperFirst(day) + " was reviewed already, at " + at + ": "
                    + summary(review) + ". Nothing changed."]
        }
        guard review.planned > 0 else { return ["Reviewed \(day): nothing was planned."] }
        var groups = [ListRenderer.Group(title: "Done (\(NumberText.grouped(result.done.count)))", tasks: result.done)]
        if let next = result.carriedTo {
            groups.append(ListRenderer.Group(title: "Not done, carried to \(dates.dayName(next)) (\(NumberText.grouped(result.carried.count)))",
                                             tasks: result.carried))
        }
        if !result.backlogged.isEmpty || result.carriedTo == nil {
            groups.append(ListRenderer.Group(title: "Not done, to the backlog (\(NumberText.grouped(result.backlogged.count)))",
                                             tasks: result.backlogged))
        }
        let rows = ListRenderer(style: style, dates: dates, labels: labels).lines(for: groups)
        return [style.bold("Review of \(day)"), ""] + rows + ["", upperFirst(summary(review))]
    }

    /// `2 of 3 planned tasks done (67%)`.
    private func summary(_ review: DayReview) -> String {
        let percent = review.planned == 0 ? 0 : Int((Double(review.completed) * 100 / Double(review.planned)).rounded())
        return "\(NumberText.grouped(review.completed)) of \(NumberText.count(review.planned, "planned task")) done (\(percent)%)"
    }

    private func upperFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }
}
