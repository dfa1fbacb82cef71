import Foundation
import Logging

/// A container's logging settings: its logger (a context may override it) and the settings its
/// contexts keep whatever their logger.
struct LogSettings: Sendable {
    var logger: Logger?
    var slowStatementThreshold: Duration?
    var logsValues = false
}
