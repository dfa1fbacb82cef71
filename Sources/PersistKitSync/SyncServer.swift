import Foundation
import PersistKit
import PostgresNIO

/// The PostgreSQL server stores sync through: where it is, who connects, over what TLS, and
/// the schema that holds the spaces.
///
/// ```swift
/// let server = try SyncServer(url: "postgres://alice:secret@db.example.com/tasks?sslmode=require")
/// let engine = SyncEngine(container: container, server: server, space: "alice")
/// ```
///
/// Each client connects as its own PostgreSQL role; row-level security keeps a role to the
/// spaces it is a member of (see ``addClient(role:)`` and ``addMember(role:toSpace:)``).
public struct SyncServer: Sendable {
    /// The connection, as PostgresNIO takes it: host, port, user, password, database, and
    /// ``tls``. Set its `options` (timeouts, TLS server name) here too.
    public var connection: PostgresConnection.Configuration
    /// The schema holding the spaces (`persistkit_sync`): several independent deployments can
    /// share one database under different schemas.
    public var schema: String
    /// How long sync waits for the server's answer to one statement, or for a connection to be
    /// made, in seconds (a minute by default). A server that went silent (a cut network, a
    /// stopped machine) then ends the round with a `.sync` error instead of holding it, and the
    /// connection is closed. A connection the server closes fails its waits at once, whatever
    /// this is.
    public var responseTimeout: TimeInterval = 60

    /// TLS, passed to PostgresNIO as is: `.disable`, `.prefer(context)` or `.require(context)`
    /// with an `NIOSSLContext` of your `TLSConfiguration` (certificates, verification).
    ///
    /// ```swift
    /// var tls = TLSConfiguration.makeClientConfiguration()
    /// tls.trustRoots = .file("/etc/ssl/company-ca.pem")
    /// server.tls = .require(try NIOSSLContext(configuration: tls))
    /// ```
    public var tls: PostgresConnection.Configuration.TLS {
        get { connection.tls }
        set { connection.tls = newValue }
    }

    /// A server given its PostgresNIO configuration.
    public init(connection: PostgresConnection.Configuration, schema: String = "persistkit_sync") {
        self.connection = connection
        self.schema = schema
    }

    /// A server given a URL: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE]`
    /// (`postgresql://` too). `sslmode` is `disable`, `prefer` (the default: TLS when the
    /// server offers it, without verifying its certificate), `require` (TLS or fail, without
    /// verifying the certificate) or `verify-full` (TLS, certificate verified against the
    /// system's trust roots and the host name), as libpq's; set ``tls`` for anything else.
    ///
    /// - Throws: `PersistError` `.sync` for a URL that is not a PostgreSQL URL,
    ///   naming what is wrong (never the password).
    public init(url text: String, schema: String = "persistkit_sync") throws {
        guard let url = URLComponents(string: text), let scheme = url.scheme, ["postgres", "postgresql"].contains(scheme) else {
            throw SyncFailure.error("'\(SyncServer.withoutPassword(text))' is not a PostgreSQL URL "
                                    + "(postgres://user:password@host:port/database)")
        }
        guard let host = url.host, !host.isEmpty else {
            throw SyncFailure.error("The server URL '\(SyncServer.withoutPassword(text))' names no host")
        }
        let user = url.user.flatMap { $0.removingPercentEncoding } ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
        let password = url.password.flatMap { $0.removingPercentEncoding }
        let database = url.path.isEmpty || url.path == "/" ? nil : String(url.path.dropFirst()).removingPercentEncoding
        let mode = url.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        let tls: PostgresConnection.Configuration.TLS
        do {
            switch mode {
            case "disable":
                tls = .disable
            case "prefer", "allow":
                var configuration = TLSConfiguration.makeClientConfiguration()
                configuration.certificateVerification = .none
                tls = .prefer(try NIOSSLContext(configuration: configuration))
            case "require":
                var configuration = TLSConfiguration.makeClientConfiguration()
                configuration.certificateVerification = .none
                tls = .require(try NIOSSLContext(configuration: configuration))
            case "verify-full", "verify-ca":
                tls = .require(try NIOSSLContext(configuration: TLSConfiguration.makeClientConfiguration()))
            default:
                throw SyncFailure.error("sslmode '\(mode)' is not disable, prefer, require or verify-full")
            }
        } catch let error as PersistError {
            throw error
        } catch {
            throw SyncFailure.error("TLS could not be set up: \(error)")
        }
        var connection = PostgresConnection.Configuration(host: host, port: url.port ?? 5432, username: user, password: password,
                                                          database: database, tls: tls)
        connection.options.connectTimeout = .seconds(10)
        self.init(connection: connection, schema: schema)
    }

    /// The server as an error or a log names it: `postgres://user@host:port/database`, never
    /// the password.
    public var displayName: String {
        let place = connection.unixSocketPath ?? "\(connection.host ?? "?"):\(connection.port ?? 5432)"
        return "postgres://\(connection.username)@\(place)/\(connection.database ?? "")"
    }

    /// The URL with any password masked.
    static func withoutPassword(_ text: String) -> String {
        guard var url = URLComponents(string: text), url.password != nil else { return text }
        url.password = "***"
        return url.string ?? text
    }

    var serverSchema: ServerSchema { ServerSchema(name: schema) }

    // MARK: Administration

    /// Creates (or brings up to date) the schema that holds the spaces, its tables,
    /// row-level security policies and the client group role `<schema>_client`. Run it once
    /// as the role that will own the schema (it needs `CREATE` on the database and
    /// `CREATEROLE`); engines connecting as an owner or superuser do it themselves.
    ///
    /// - Throws: `PersistError` `.sync` when the server cannot be reached or
    ///   refuses a statement.
    public func install() async throws {
        try await ServerSession.withConnection(to: self) { session in try await session.install() }
    }

    /// Lets the PostgreSQL role `role` connect as a sync client (grants it the client group
    /// role). The role must exist; it still reaches only the spaces it is a member of.
    ///
    /// - Throws: `PersistError` `.sync`.
    public func addClient(role: String) async throws {
        try await ServerSession.withConnection(to: self) { session in
            try await session.execute("GRANT \(ServerSchema.quote(serverSchema.clientRole)) TO \(ServerSchema.quote(role))")
        }
    }

    /// Makes `role` a member of `space`: it may then read and write the space's objects. A
    /// space is made by the first client that syncs it, which becomes its first member;
    /// only the schema's owner (or a superuser) adds others.
    ///
    /// - Throws: `PersistError` `.sync`, also when the space does not exist yet.
    public func addMember(role: String, toSpace space: String) async throws {
        try await ServerSession.withConnection(to: self) { session in
            try await session.addMember(role: role, space: space)
        }
    }
}
