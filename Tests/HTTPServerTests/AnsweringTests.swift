import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

/// Which thread answers: requests wait their turn in one queue for the answering threads, whichever
/// libmicrohttpd thread read them; static files are answered at once by the thread that read them.
@Suite struct AnsweringTests {
    @Test func aSlowAnswerHoldsUpNoOtherConnectionWhileAThreadIsFree() throws {
        let gate = Gate()
        let server = try GatedServer(threads: 2, gate: gate)
        defer { gate.open() }
        // Connections opened while both libmicrohttpd threads are idle: each thread keeps the ones
        // it accepted, so some share a thread with the slow request below.
        let slow = try server.client()
        #expect(try slow.request("GET", "/first").status == 200)
        let others = try (0..<16).map { index in
            let client = try server.client()
            #expect(try client.request("GET", "/first-\(index)").status == 200)
            return client
        }
        slow.send(Array("GET /hold HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        try waitUntil(upTo: 60) { gate.held == 1 }

        // Answered on the reading thread, those on the slow request's thread waited for it.
        for (index, client) in others.enumerated() {
            let reply = try client.request("GET", "/page-\(index)")
            #expect(reply.text == "/page-\(index)")
        }
        #expect(gate.held == 1 && !gate.isOpen, "answered while the slow request was still held")

        gate.open()
        #expect(try slow.readReply().text == "/hold")
    }

    @Test func aStaticFileDoesNotWaitForTheAnsweringThreads() throws {
        let gate = Gate()
        let server = try GatedServer(threads: 1, gate: gate)
        defer { gate.open() }
        let slow = try server.holdOne(gate)

        let file = try server.client().request("GET", "/static/app.css")
        #expect(file.text == "/static/app.css")
        #expect(!gate.isOpen, "answered while the only answering thread was busy")

        gate.open()
        #expect(try slow.readReply().text == "/hold")
    }

    @Test func aStopDropsRequestsWaitingTheirTurnAndFinishesTheOneBeingAnswered() throws {
        let gate = Gate()
        let (server, slow, stopped) = try stopWithOneAnsweredAndOneWaiting(gate)
        defer {
            gate.open()
            withExtendedLifetime(server) {}
        }
        // The stop then waits for the one being answered.
        #expect(!stopped.isSet)

        gate.open()
        let reply = try slow.readReply()
        #expect(reply.text == "/hold")
        #expect(reply.header("Connection") == "close")
        try waitUntil(upTo: 60) { stopped.isSet }
        #expect(gate.answered == ["/hold"])
    }

    @Test func aConnectionOpenedDuringAStopIsClosedAtOnce() throws {
        let gate = Gate()
        let (server, slow, stopped) = try stopWithOneAnsweredAndOneWaiting(gate)
        defer {
            gate.open()
            withExtendedLifetime(server) {}
        }

        // The stop still waits for the held answer; a newcomer is closed unanswered, not kept
        // waiting until the stop ends.
        let late = try server.client()
        late.send(Array("GET /late HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(late.isClosedByServer())
        #expect(!stopped.isSet)

        gate.open()
        #expect(try slow.readReply().text == "/hold")
        try waitUntil(upTo: 60) { stopped.isSet }
        #expect(gate.answered == ["/hold"])
    }

    /// A one-thread server answering `/hold` (held by the gate) with `/page` waiting its turn, then
    /// stopping in the background: the waiting request has been closed unanswered, the stop has begun.
    private func stopWithOneAnsweredAndOneWaiting(_ gate: Gate) throws -> (GatedServer, slow: RawHTTPClient, stopped: Flag) {
        let server = try GatedServer(threads: 1, gate: gate)
        let slow = try server.holdOne(gate)
        let waiting = try server.client()
        waiting.send(Array("GET /page HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        try waitUntil(upTo: 60) { gate.queued == 2 }
        let stopped = stopInBackground(server.server, grace: .zero, runningLimit: .seconds(600))
        #expect(waiting.isClosedByServer(), "a request waiting its turn is dropped by the stop")
        return (server, slow, stopped)
    }

    @Test func aStopGivesUpAnAnswerThatNeverEndsOnceItsLimitHasPassed() throws {
        let gate = Gate()
        let server = try GatedServer(threads: 1, gate: gate)
        // Opened only after the stop: until then the handler does not return.
        defer { gate.open() }
        let slow = try server.holdOne(gate)

        let abandoned = server.server.shutdown(grace: .zero, runningLimit: .milliseconds(100))
        #expect(abandoned == ["GET /hold"])
        #expect(slow.isClosedByServer(), "closed without an answer")
        #expect(!gate.isOpen && gate.answered.isEmpty)
    }
}

/// Holds `/hold` until opened; answers any other path with the path itself. Static files are inline.
private final class Gate: Sendable {
    private let heldCount = Atomic<Int>(0)
    private let queuedCount = Atomic<Int>(0)
    private let door = Latch()
    private let answeredPaths = Mutex<[String]>([])

    var held: Int { heldCount.load(ordering: .acquiring) }
    /// Requests that went to the answering threads' queue.
    var queued: Int { queuedCount.load(ordering: .acquiring) }
    var isOpen: Bool { door.isOpen }
    var answered: [String] { answeredPaths.withLock { $0 } }
    func open() { door.open() }

    fileprivate func answer(_ path: String) -> String {
        if path == "/hold" {
            heldCount.add(1, ordering: .releasing)
            door.wait()
        }
        answeredPaths.withLock { $0.append(path) }
        return path
    }

    fileprivate func inline(_ path: String) -> Bool {
        let isStatic = path.hasPrefix("/static/")
        if !isStatic { queuedCount.add(1, ordering: .releasing) }
        return isStatic
    }
}

private struct GateResponder: Responder {
    let gate: Gate

    func answersInline(_ request: Request) -> Bool { gate.inline(request.path) }

    func respond(to request: Request) -> Response {
        Response(status: 200, contentType: "text/plain", text: gate.answer(request.path))
    }

    func respond(toRefused request: Request, status: Int) -> Response {
        Response(status: status, contentType: "text/plain", text: "refused \(status)")
    }
}

private final class GatedServer {
    let server: Server
    var port: UInt16 { server.port }

    init(threads: Int, gate: Gate) throws {
        server = Server(configuration: ServerConfiguration(host: "127.0.0.1", port: 0, threads: threads), responder: GateResponder(gate: gate))
        try server.start()
    }

    deinit { server.shutdown(grace: .seconds(1)) }

    func client() throws -> RawHTTPClient { try RawHTTPClient(port: port) }

    /// A connection whose request `/hold` is being answered, held by the gate.
    func holdOne(_ gate: Gate) throws -> RawHTTPClient {
        let slow = try client()
        slow.send(Array("GET /hold HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        try waitUntil(upTo: 60) { gate.held == 1 }
        return slow
    }
}
