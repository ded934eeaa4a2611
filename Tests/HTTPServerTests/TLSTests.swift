import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

/// The HTTPS listener: libmicrohttpd's TLS with a certificate read from PEM files and read again
/// when they change; broken or slow TLS clients hold no worker.
@Suite("HTTPS listener")
struct TLSTests {
    static func httpsServer(_ certificates: TestCertificates, configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> TestServer {
        try TestServer {
            $0.tls = TLSListener(certificateFile: certificates.chain, keyFile: certificates.key)
            configure(&$0)
        }
    }

    @Test func answersOverHTTPSAndMarksRequestsSecure() throws {
        let certificates = try TestCertificates()
        defer { certificates.folder.remove() }
        let server = try Self.httpsServer(certificates)
        let reply = try certificates.get("https://127.0.0.1:\(server.port)/echo/secure?x=1")
        #expect(reply.status == 200)
        let echo = try JSONDecoder().decode(SecureEcho.self, from: Data(reply.body.utf8))
        #expect(echo.secure == true)
        #expect(echo.path == "/echo/secure")
        // The name check is real: localhost is in the certificate too.
        #expect(try certificates.get("https://localhost:\(server.port)/echo").status == 200)
    }

    @Test func aClientPastItsConnectionLimitIsAnsweredOverHTTPSToo() throws {
        let certificates = try TestCertificates()
        defer { certificates.folder.remove() }
        let server = try Self.httpsServer(certificates) { $0.maxConnectionsPerClient = 1 }
        // A connection that never starts its handshake holds 127.0.0.1's one slot.
        let holder = try server.client(from: "127.0.0.1")
        var reply = try certificates.get("https://127.0.0.1:\(server.port)/echo")
        // Once the holder is counted (the server accepts it on its own thread), curl is answered 503.
        try waitUntil(upTo: 60) {
            if reply.status == 503 { return true }
            reply = (try? certificates.get("https://127.0.0.1:\(server.port)/echo")) ?? reply
            return reply.status == 503
        }
        #expect(reply.status == 503)
        #expect(reply.body.contains("try again"))
        #expect(!holder.isClosedNow())
    }

    @Test func plainHTTPRequestsAreNotSecure() throws {
        let server = try TestServer()
        let reply = try server.client().request("GET", "/echo")
        let echo = try JSONDecoder().decode(SecureEcho.self, from: Data(reply.body))
        #expect(echo.secure == false)
    }

    @Test func aChangedCertificateIsServedFromTheNextHandshake() throws {
        let certificates = try TestCertificates()
        defer { certificates.folder.remove() }
        let server = try Self.httpsServer(certificates)
        #expect(try TestCertificates.servedSerial(port: server.port) == String(1001, radix: 16, uppercase: true).leftPadded(4))

        // Written beside, then renamed over: what a careful renewal does; a plain overwrite works too.
        try certificates.issue(
            serial: 2002, into: certificates.folder.appending("new.crt"), key: certificates.folder.appending("new.key"))
        #expect(rename(certificates.folder.appending("new.key").path, certificates.key.path) == 0)
        #expect(rename(certificates.folder.appending("new.crt").path, certificates.chain.path) == 0)
        #expect(try TestCertificates.servedSerial(port: server.port) == String(2002, radix: 16, uppercase: true).leftPadded(4))
        #expect(try certificates.get("https://127.0.0.1:\(server.port)/echo").status == 200)
    }

    @Test func aBrokenReplacementKeepsThePreviousCertificate() throws {
        let certificates = try TestCertificates()
        defer { certificates.folder.remove() }
        let failures = FailureLog()
        let server = try TestServer {
            $0.tls = TLSListener(certificateFile: certificates.chain, keyFile: certificates.key)
        } prepare: {
            $0.certificateReloadFailed = { failures.append($0) }
        }
        // Only the certificate replaced: its key is another one.
        try certificates.issue(serial: 3003, into: certificates.chain, key: certificates.folder.appending("unused.key"))
        #expect(try TestCertificates.servedSerial(port: server.port) == "03E9")
        #expect(failures.messages.first?.contains("does not belong") == true)
    }

    @Test func unusableFilesFailAtStartInOneSentence() throws {
        let certificates = try TestCertificates()
        defer { certificates.folder.remove() }
        let missing = certificates.folder.appending("missing.crt")
        #expect {
            _ = try TestServer { $0.tls = TLSListener(certificateFile: missing, keyFile: certificates.key) }
        } throws: { error in
            "\(error)".contains("Cannot read the TLS certificate file \(missing.path)")
        }
        // A key and a certificate that are not a pair.
        try certificates.issue(serial: 4004, into: certificates.folder.appending("other.crt"), key: certificates.folder.appending("other.key"))
        #expect {
            _ = try TestServer { $0.tls = TLSListener(certificateFile: certificates.chain, keyFile: certificates.folder.appending("other.key")) }
        } throws: { error in
            "\(error)".contains("does not belong to the first certificate")
        }
    }

    @Test func garbageInsteadOfAClientHelloIsDroppedAndOthersAreServed() throws {
        let certificates = try TestCertificates()
        defer { certificates.folder.remove() }
        let server = try Self.httpsServer(certificates)
        // Plain HTTP on the TLS port, then random bytes: each connection is closed, nothing crashes.
        let plain = try server.client()
        plain.send(Array("GET /echo HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        try waitUntil("plain HTTP closed") { plain.isClosedNow() }
        let garbage = try server.client()
        garbage.send((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        try waitUntil("garbage closed") { garbage.isClosedNow() }
        #expect(try certificates.get("https://127.0.0.1:\(server.port)/echo").status == 200)
    }

    @Test func handshakesThatNeverFinishHoldNoWorkerAndAreCutAtTheDeadline() throws {
        let certificates = try TestCertificates()
        defer { certificates.folder.remove() }
        // Two workers, five stalled handshakes (a TLS record header promising 512 bytes, then
        // silence); the idle timeout is far away, the header deadline is not.
        let server = try Self.httpsServer(certificates) {
            $0.threads = 2
            $0.headerDeadline = .seconds(10)
            $0.inactivityTimeout = 300
        }
        let stalled = try (0..<5).map { _ in try server.client() }
        for client in stalled { client.send([0x16, 0x03, 0x01, 0x02, 0x00, 0x01]) }
        #expect(try certificates.get("https://127.0.0.1:\(server.port)/echo").status == 200)
        #expect(stalled.contains { !$0.isClosedNow() }, "served while the stalled handshakes were still open")
        for client in stalled { try waitUntil("stalled handshake cut") { client.isClosedNow() } }
        #expect(try certificates.get("https://127.0.0.1:\(server.port)/echo").status == 200)
    }
}

/// The fields of the echo these tests read, with `secure` added by `EchoResponder`.
private struct SecureEcho: Decodable {
    let path: String
    let secure: Bool
}

private final class FailureLog: Sendable {
    private let log = Mutex<[String]>([])
    var messages: [String] { log.withLock { $0 } }
    func append(_ message: String) { log.withLock { $0.append(message) } }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
