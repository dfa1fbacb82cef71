import Foundation

/// SQL literals for values that must be written into a statement's text: the `DEFAULT` of a
/// column added with `ALTER TABLE ADD COLUMN`, which cannot be a bound parameter.
enum SQLiteLiteral {
    /// The literal SQLite reads back as exactly `value`, or nil when there is none (a text
    /// with a NUL character, an infinite real, a real SQLite's parser would round).
    static func literal(for value: SQLValue, _ connection: SQLiteConnection) throws -> String? {
        let text: String
        switch value {
        case .null: return "NULL"
        case .integer(let integer):
            // Int64.min has no literal: `-9223372036854775808` is minus a number too large.
            guard integer != .min else { return nil }
            text = String(integer)
        case .real(let real):
            // (A `DEFAULT` takes a signed number but no expression: no parentheses, and no -0.0.)
            guard real.isFinite, !(real == 0 && real.sign == .minus) else { return nil }
            text = "\(real)"
        case .text(let string):
            guard !string.unicodeScalars.contains("\0") else { return nil }
            text = "'" + string.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data):
            text = "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
        // Checked, not assumed: the literal must come back bit for bit.
        let statement = try connection.prepare("SELECT \(text)")
        guard try statement.step() else { return nil }
        return SQLValue.identical(statement.value(at: 0), value) ? text : nil
    }
}
