import Foundation
import PersistKit
import PostgresNIO

/// Makes every sync failure a `PersistError` with code `.sync`, one sentence
/// naming what failed, the server and the space.
enum SyncFailure {
    /// An error with `message`.
    static func error(_ message: String, server: String? = nil, space: String? = nil) -> PersistError {
        var error = PersistError(.sync, message)
        error.server = server
        error.space = space
        return error
    }

    /// The server did not answer within ``SyncServer/responseTimeout`` while `doing` something.
    static func timedOut(server: SyncServer, doing: String) -> PersistError {
        error("The sync server did not answer within \(Self.seconds(server.responseTimeout)) while \(doing): the connection was "
              + "closed (set SyncServer.responseTimeout for a slower server)", server: server.displayName)
    }

    private static func seconds(_ interval: TimeInterval) -> String {
        interval == interval.rounded() ? "\(Int(interval)) s" : String(format: "%.1f s", interval)
    }

    /// `error` (from PostgresNIO, the network, or PersistKit) as a sync error, while `doing`
    /// something ("pushing 12 changes"). PersistKit's own errors pass through unchanged.
    static func wrap(_ error: Error, doing: String, server: String?, space: String?) -> PersistError {
        if var persist = error as? PersistError {
            if persist.code == .sync {
                persist.server = persist.server ?? server
                persist.space = persist.space ?? space
            }
            return persist
        }
        return Self.error("Sync failed while \(doing): \(describe(error))", server: server, space: space)
    }

    /// PostgreSQL's own words for a server error (its message and detail), or the connection
    /// problem, in one line.
    static func describe(_ error: Error) -> String {
        if let transaction = error as? PostgresTransactionError {
            if let inner = transaction.closureError { return describe(inner) }
            if let inner = transaction.beginError { return describe(inner) }
            if let inner = transaction.commitError { return describe(inner) }
        }
        if let psql = error as? PSQLError {
            if let info = psql.serverInfo, let message = info[.message] {
                var text = message
                if let detail = info[.detail] { text += " (\(detail))" }
                return text
            }
            switch psql.code {
            case .connectionError:
                return "cannot connect" + (psql.underlying.map { ": \($0)" } ?? "")
            case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown:
                return "the connection was closed"
            case .sslUnsupported:
                return "the server does not support TLS, which the connection requires"
            default:
                return "\(psql.code)" + (psql.underlying.map { ": \($0)" } ?? "")
            }
        }
        return "\(error)"
    }

    /// The SQLSTATE of a PostgreSQL error, if it is one.
    static func sqlState(of error: Error) -> String? {
        if let transaction = error as? PostgresTransactionError, let inner = transaction.closureError { return sqlState(of: inner) }
        return (error as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// Whether the error is the connection's (refused, dropped, timed out), not the server's
    /// answer to a statement: trying again later may succeed.
    static func isConnectionLoss(_ error: Error) -> Bool {
        if let transaction = error as? PostgresTransactionError {
            return [transaction.closureError, transaction.beginError, transaction.commitError].contains { $0.map(isConnectionLoss) == true }
        }
        guard let psql = error as? PSQLError else { return !(error is PersistError) }
        // Connection errors and a server that went away (including its shutdown's "terminating connection" error).
        if let state = psql.serverInfo?[.sqlState] { return state.hasPrefix("08") || state.hasPrefix("57P") }
        return true
    }
}
