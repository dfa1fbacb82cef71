import Foundation
import PersistKit
import PersistKitTestSupport
import PostgresNIO
@testable import PersistKitSync
import XCTest

/// TLS reaches PostgresNIO as configured: `sslmode=require` connects encrypted (the server
/// says so), `verify-full` refuses a certificate no trusted root signed, and ``SyncServer/tls``
/// set to trust that certificate syncs over TLS.
final class TLSTests: SyncTestCase {
    /// Where the certificate is made (removed with the class's server, at its tearDown).
    private static let certificates = FileManager.default.temporaryDirectory.appendingPathComponent("persistkit-tls-" + UUID().uuidString)

    override class func tearDown() {
        try? FileManager.default.removeItem(at: certificates)
        super.tearDown()
    }

    /// A self-signed certificate for `localhost` (made with `openssl`; the test skips without it).
    override class func serverCertificate() throws -> (certificate: URL, key: URL)? {
        let certificate = certificates.appendingPathComponent("server.crt"), key = certificates.appendingPathComponent("server.key")
        if !FileManager.default.fileExists(atPath: certificate.path) {
            try FileManager.default.createDirectory(at: certificates, withIntermediateDirectories: true)
            let openssl = ["/usr/bin/openssl", "/bin/openssl"].first { FileManager.default.isExecutableFile(atPath: $0) }
            guard let openssl else { throw XCTSkip("openssl is not installed: no certificate for the TLS tests") }
            try TestPostgres.run(openssl, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                                           "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                                           "-keyout", key.path, "-out", certificate.path])
        }
        return (certificate, key)
    }

    /// Whether the server sees the session's own connection encrypted.
    private func isEncrypted(_ server: SyncServer) async throws -> Bool {
        try await ServerSession.withConnection(to: server) { session in
            try await session.rows("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", as: Bool.self).first ?? false
        }
    }

    func testSSLModesReachPostgresNIO() async throws {
        let url = try serverURL()
        let required = try SyncServer(url: url.replacingOccurrences(of: "sslmode=disable", with: "sslmode=require"))
        let encrypted = try await isEncrypted(required)
        XCTAssertTrue(encrypted, "sslmode=require: the server sees TLS")
        let plain = try await isEncrypted(try SyncServer(url: url))
        XCTAssertFalse(plain, "sslmode=disable: no TLS")

        // verify-full checks the certificate against the system's roots: a self-signed one fails, clearly.
        let verified = try SyncServer(url: url.replacingOccurrences(of: "sslmode=disable", with: "sslmode=verify-full"))
        do {
            _ = try await isEncrypted(verified)
            XCTFail("a self-signed certificate passed verify-full")
        } catch let error as PersistError {
            XCTAssertEqual(error.code, .sync)
            XCTAssertTrue(error.message.hasPrefix("Cannot reach the sync server") || error.message.contains("TLS")
                          || error.message.contains("certificate"), error.message)
        }
    }

    func testAnEngineSyncsOverTLSWithTheCertificateItWasGiven() async throws {
        var server = try self.server()
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(try XCTUnwrap(try Self.serverCertificate()).certificate.path)
        server.tls = .require(try NIOSSLContext(configuration: tls))
        server.connection.options.tlsServerName = "localhost"
        let encrypted = try await isEncrypted(server)
        XCTAssertTrue(encrypted)

        let a = try makeContainer("a"), b = try makeContainer("b")
        var configuration = SyncConfiguration()
        configuration.excludedEntities = ["SLocal"]
        let engineA = SyncEngine(container: a, server: server, space: "tls", configuration: configuration)
        let engineB = SyncEngine(container: b, server: server, space: "tls", configuration: configuration)
        let context = a.newContext()
        let note = SNote(context: context)
        note.title = "over TLS"
        try context.save()
        try await engineA.sync()
        try await engineB.sync()
        XCTAssertEqual(try b.newContext().fetch(FetchRequest<SNote>()).map(\.title), ["over TLS"])
    }
}
