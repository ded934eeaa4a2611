import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

/// Streamed answers (Server-Sent Events): bytes sent whenever their holder has them, over a
/// connection that holds no answering thread in between.
@Suite struct StreamingTests {
    @Test func bytesSentLaterArriveInOrderAndTheEndClosesTheBody() throws {
        let server = try StreamingServer()
        let client = try server.client()
        let head = try client.request("GET", "/stream")
        #expect(head.status == 200)
        #expect(head.header("content-type") == "text/event-stream")
        #expect(head.header("transfer-encoding") == "chunked")
        let stream = try server.streams.take()

        #expect(stream.send(Array("data: one\n\n".utf8)))
        #expect(String(decoding: try client.readChunk(), as: UTF8.self) == "data: one\n\n")
        #expect(stream.send(Array("data: two\n\n".utf8)))
        #expect(stream.send(Array("data: three\n\n".utf8)))
        var received = ""
        while received.count < "data: two\n\ndata: three\n\n".count {
            received += String(decoding: try client.readChunk(), as: UTF8.self)
        }
        #expect(received == "data: two\n\ndata: three\n\n")

        stream.end()
        #expect(try client.readChunk().isEmpty, "the last chunk ends the body")
        try waitUntil("the server let go of the stream") { server.streams.closed == 1 }
        #expect(!stream.send(Array("late".utf8)), "an ended stream takes nothing")
        // The connection serves the next request.
        #expect(try client.request("GET", "/page").text == "/page")
    }

    @Test func openStreamsHoldNoAnsweringThread() throws {
        // One answering thread, and many streams open on it: pages are still answered.
        let server = try StreamingServer(threads: 1) { $0.maxConnectionsPerClient = 300 }
        let clients = try (0..<200).map { _ in
            let client = try server.client()
            #expect(try client.request("GET", "/stream").status == 200)
            return client
        }
        let streams = try (0..<200).map { _ in try server.streams.take() }
        for index in 0..<5 {
            #expect(try server.client().request("GET", "/page-\(index)").text == "/page-\(index)")
        }
        // Every stream still delivers.
        for (stream, client) in zip(streams, clients).prefix(20) {
            #expect(stream.send(Array("ping".utf8)))
            #expect(String(decoding: try client.readChunk(), as: UTF8.self) == "ping")
        }
    }

    @Test func aClientThatLeftIsNoticedAtTheNextSend() throws {
        let server = try StreamingServer()
        var client: RawHTTPClient? = try server.client()
        #expect(try client?.request("GET", "/stream").status == 200)
        let stream = try server.streams.take()
        client = nil
        // The connection is suspended while nothing is sent: the close is seen once a send wakes it.
        try waitUntil("the send fails on the closed socket") {
            _ = stream.send(Array(": heartbeat\n\n".utf8))
            return server.streams.closed == 1
        }
        #expect(!stream.isOpen)
    }

    @Test func aClientThatDoesNotReadIsCutOffAtTheLimit() throws {
        let server = try StreamingServer(maxPending: 1024)
        let client = try server.client()
        #expect(try client.request("GET", "/stream").status == 200)
        let stream = try server.streams.take()
        // Far more than the socket buffers hold, unread: the stream ends instead of growing.
        let block = [UInt8](repeating: UInt8(ascii: "x"), count: 512)
        var refused = false
        for _ in 0..<100_000 where !stream.send(block) {
            refused = true
            break
        }
        #expect(refused)
        #expect(!stream.isOpen)
    }

    @Test func aStopEndsOpenStreamsAtOnce() throws {
        let server = try StreamingServer()
        let client = try server.client()
        #expect(try client.request("GET", "/stream").status == 200)
        let stream = try server.streams.take()
        // The stop ends the stream itself: its client gets the body's last chunk (a stop that only
        // dropped the connection would close it without one, and readChunk would throw).
        server.server.shutdown(grace: .seconds(30))
        #expect(!stream.isOpen)
        #expect(try client.readChunk().isEmpty)
    }
}

/// The streams `/stream` answered with, in order, for the test to send on.
private final class Streams: Sendable {
    private let waiting = Mutex<[ResponseStream]>([])
    private let closedCount = Atomic<Int>(0)
    var closed: Int { closedCount.load(ordering: .acquiring) }

    func add(_ stream: ResponseStream) { waiting.withLock { $0.append(stream) } }
    func wasClosed() { closedCount.add(1, ordering: .releasing) }

    /// The oldest stream not yet taken, waiting for the server to make it.
    func take() throws -> ResponseStream {
        var taken: ResponseStream?
        try waitUntil("a stream was made") {
            taken = waiting.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            return taken != nil
        }
        return taken!
    }
}

private struct StreamingResponder: Responder {
    let streams: Streams
    let maxPending: Int

    func respond(to request: Request) -> Response {
        guard request.path == "/stream" else { return Response(status: 200, contentType: "text/plain", text: request.path) }
        let streams = self.streams
        let stream = ResponseStream(maxPending: maxPending) { streams.wasClosed() }
        streams.add(stream)
        return Response(status: 200, headers: [("Content-Type", "text/event-stream")], body: .stream(stream))
    }

    func respond(toRefused request: Request, status: Int) -> Response {
        Response(status: status, contentType: "text/plain", text: "refused \(status)")
    }
}

private final class StreamingServer {
    let server: Server
    let streams = Streams()

    init(threads: Int = 2, maxPending: Int = 256 * 1024, configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, threads: threads)
        configure(&configuration)
        server = Server(configuration: configuration, responder: StreamingResponder(streams: streams, maxPending: maxPending))
        try server.start()
    }

    deinit { server.shutdown(grace: .seconds(1)) }

    func client() throws -> RawHTTPClient { try RawHTTPClient(port: server.port) }
}
