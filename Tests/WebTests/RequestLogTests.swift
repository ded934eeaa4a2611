import Foundation
import GRDB
import HTTPServer
import Logging
import Synchronization
import Testing

@testable import Inventory
@testable import Web

/// Every line the app logs, as text with its metadata.
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    var logger: Logger {
        Logger(label: "capture") { _ in CapturingLogHandler(capture: self) }
    }

    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
    var text: String { all.joined(separator: "\n") }
}

struct CapturingLogHandler: LogHandler {
    let capture: LogCapture
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        capture.append("\(event.level) \(event.message) \(event.metadata ?? [:])")
    }
}

@Suite("What the log says about requests")
struct RequestLogTests {
    static let secret = "SECRETtoken1234567890abcdef"

    @Test func aRefusedFormToASecretLinkLogsTheRouteNotTheToken() async throws {
        let capture = LogCapture()
        let fixture = try await HouseholdFixture(logger: capture.logger)
        // A stale tab posts the invitation form with a token the server no longer expects.
        let response = try fixture.send("POST", "/join/\(Self.secret)", as: nil, form: [("name", "x")], csrf: .wrong)
        #expect(response.status == 403)
        #expect(capture.text.contains("/join/{token}"))
        #expect(capture.text.contains("CSRF"))
        #expect(!capture.text.contains(Self.secret))
    }

    @Test(arguments: [
        ("GET", "//join/\(secret)"),
        ("GET", "/calendar/\(secret).ics/"),
        ("GET", "//calendar/\(secret).ics"),
        ("DELETE", "/join/\(secret)"),
        ("PUT", "/calendar/\(secret).ics"),
        ("GET", "/join/\(secret)/more"),
        ("GET", "/reset/\(secret)/"),
        ("POST", "/nothing/\(secret)"),
        ("GET", "/\(secret)"),
    ])
    func noPathVariantPutsASecretInTheLog(method: String, path: String) async throws {
        let capture = LogCapture()
        let fixture = try await HouseholdFixture(logger: capture.logger)
        _ = try fixture.send(method, path, as: nil, csrf: .wrong)
        _ = try fixture.send(method, path, as: fixture.owner)
        #expect(!capture.all.isEmpty, "the requests were logged")
        #expect(!capture.text.contains(Self.secret))
    }

    @Test func aRefusedRequestLogsItsRouteToo() async throws {
        let capture = LogCapture()
        let fixture = try await HouseholdFixture(logger: capture.logger)
        _ = fixture.app.respond(toRefused: Request(method: "POST", path: "//join/\(Self.secret)/"), status: 413)
        #expect(capture.text.contains("/join/{token} 413"))
        #expect(!capture.text.contains(Self.secret))
    }

    @Test func aLongMethodIsNotLoggedVerbatim() async throws {
        let capture = LogCapture()
        let fixture = try await HouseholdFixture(logger: capture.logger)
        let method = String(repeating: "M", count: 10_000)
        _ = try fixture.send(method, "/", as: nil)
        #expect(!capture.text.contains(String(repeating: "M", count: 17)))
        #expect(capture.text.contains("(method, 10000 bytes)"))
        #expect(capture.text.count < 1_000)
    }

    @Test func ordinaryRequestsLogMethodRouteAndStatus() async throws {
        let capture = LogCapture()
        let fixture = try await HouseholdFixture(logger: capture.logger)
        _ = try fixture.send("GET", "/folders/\(fixture.fridgeId)", as: fixture.owner)
        #expect(capture.text.contains("GET /folders/{id} 200"))
    }
}

@Suite("Which requests may send a body, decided before it is read")
struct AdmissionTests {
    static func head(_ method: String, _ path: String, session: String?) -> Request {
        var headers = [("Host", "zaiko.test"), ("Content-Type", "multipart/form-data; boundary=x"), ("Content-Length", "20000000")]
        if let session { headers.append(("Cookie", "zaiko_session=\(session)")) }
        return Request(method: method, path: path, headers: Headers(headers), clientAddress: "192.168.1.30")
    }

    static func limit(_ admission: Admission) -> BodyLimit? {
        if case .read(let limit, _) = admission { return limit }
        return nil
    }

    @Test(arguments: ["/login", "/nothing/here", "/setup", "/join/abc", "/folders"])
    func formsAndUnknownPathsGetASmallBodyAndNoFiles(path: String) async throws {
        let fixture = try await HouseholdFixture()
        for session in [nil, fixture.owner] {
            let limit = try #require(Self.limit(fixture.app.admit(Self.head("POST", path, session: session))))
            #expect(!limit.allowsFiles)
            #expect(limit.maxBytes <= 64 * 1024)
        }
    }

    @Test(arguments: ["/items/new", "/items/1", "/items/1/photo", "/products/1", "/import"])
    func uploadRoutesTakeFilesOnlyFromWriters(path: String) async throws {
        let fixture = try await HouseholdFixture()
        let writer = try #require(Self.limit(fixture.app.admit(Self.head("POST", path, session: fixture.member))))
        #expect(writer.allowsFiles)
        #expect(writer.maxBytes >= 20 * 1024 * 1024)

        guard case .answer(let anonymous) = fixture.app.admit(Self.head("POST", path, session: nil)) else {
            Issue.record("an anonymous upload was admitted")
            return
        }
        #expect(anonymous.status == 303)
        #expect(anonymous.header("Location")?.hasPrefix("/login") == true)
        guard case .answer(let viewer) = fixture.app.admit(Self.head("POST", path, session: fixture.viewer)) else {
            Issue.record("a viewer's upload was admitted")
            return
        }
        #expect(viewer.status == 403)
        guard case .answer(let stale) = fixture.app.admit(Self.head("POST", path, session: "expired-or-made-up")) else {
            Issue.record("an unknown session's upload was admitted")
            return
        }
        #expect(stale.status == 303)
    }
}

@Suite("A request is routed and its session read once")
struct RoutedOnceTests {
    /// Counts the statements that read a session, on a database otherwise like the app's.
    final class SessionReads: Sendable {
        private let count = Atomic<Int>(0)
        var value: Int { count.load(ordering: .acquiring) }
        func reset() { count.store(0, ordering: .releasing) }

        func database() throws -> AppDatabase {
            var configuration = Configuration()
            configuration.foreignKeysEnabled = true
            configuration.prepareDatabase { db in
                db.trace(options: .statement) { [self] event in
                    if "\(event)".contains("FROM session s JOIN member") { count.add(1, ordering: .releasing) }
                }
            }
            return try AppDatabase(DatabaseQueue(configuration: configuration))
        }
    }

    /// An upload's session is read when its head arrives (who may send files) and not again
    /// when its body is in; the route found then answers it.
    @Test func anUploadReadsItsSessionOnceAcrossAdmissionAndAnswer() async throws {
        let reads = SessionReads()
        let fixture = try await HouseholdFixture(database: try reads.database())
        let csrf = try #require(try fixture.accounts.session(token: fixture.member)?.csrfToken)
        let head = AdmissionTests.head("POST", "/items/\(fixture.itemId)/photo", session: fixture.member)
        reads.reset()
        guard case .read(let limit, let note) = fixture.app.admit(head) else {
            Issue.record("the member's upload was not admitted")
            return
        }
        #expect(limit.allowsFiles)
        var request = Request(
            method: head.method, path: head.path, headers: head.headers, form: Parameters([("_csrf", csrf)]), clientAddress: head.clientAddress)
        request.admissionNote = note
        let response = fixture.app.respond(to: request)
        // No file sent: the item page again, with the member's words for it (signed in, token accepted).
        #expect(response.status == 422)
        #expect(reads.value == 1)
    }

    /// A form to a route that takes no files is routed at its head, and its session read once, when answered.
    @Test func aFormIsRoutedAtItsHeadAndItsSessionReadOnce() async throws {
        let reads = SessionReads()
        let fixture = try await HouseholdFixture(database: try reads.database())
        let csrf = try #require(try fixture.accounts.session(token: fixture.member)?.csrfToken)
        let head = AdmissionTests.head("POST", "/items/\(fixture.itemId)/opened", session: fixture.member)
        reads.reset()
        guard case .read(let limit, let note) = fixture.app.admit(head) else {
            Issue.record("the form was not admitted")
            return
        }
        #expect(!limit.allowsFiles)
        #expect((note as? RoutedRequest)?.pattern == "/items/{id}/opened")
        #expect(reads.value == 0)
        var request = Request(
            method: head.method, path: head.path, headers: head.headers, form: Parameters([("_csrf", csrf)]), clientAddress: head.clientAddress)
        request.admissionNote = note
        let response = fixture.app.respond(to: request)
        #expect(response.status == 303)
        #expect(reads.value == 1)
    }
}
