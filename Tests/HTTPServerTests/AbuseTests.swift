import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

/// Clients that try to hold the server: trickling bytes, many connections, odd requests, and a
/// stop while a body is half sent. Limits and deadlines are made small; nothing measures time.
@Suite("HTTP server against hostile clients")
struct AbuseTests {
    /// Sends `bytes` one at a time, a fifth of a second apart, until the server closes the
    /// connection; returns how many were sent before it did (nil when it never did).
    static func trickle(_ bytes: [UInt8], on client: RawHTTPClient) -> Int? {
        for (index, byte) in bytes.enumerated() {
            if client.isClosedNow() { return index }
            client.send([byte])
            usleep(200_000)
        }
        return client.isClosedNow() ? bytes.count : nil
    }

    @Test func aClientTricklingItsHeadersIsCutAtTheDeadline() throws {
        // Idle timeout 30 s, never reached: a byte comes every 0.2 s. Headers must be in within 1 s.
        let server = try TestServer {
            $0.headerDeadline = .seconds(1)
            $0.inactivityTimeout = 30
        }
        let client = try server.client()
        let head = Array("GET /echo HTTP/1.1\r\nHost: x\r\nX-Pad: \(String(repeating: "a", count: 400))\r\n\r\n".utf8)
        let sent = Self.trickle(head, on: client)
        #expect(sent != nil, "the connection stayed open for the whole trickle")
        #expect((sent ?? head.count) < head.count - 4, "cut before the headers were complete")
    }

    @Test func aClientTricklingItsBodyIsCutAtTheDeadline() throws {
        // 2,000 bytes at the least 1,000 bytes/s: due within 1 + 2 s; sent at 5 bytes/s.
        let server = try TestServer {
            $0.headerDeadline = .seconds(1)
            $0.minimumUploadRate = 1000
            $0.inactivityTimeout = 30
        }
        let client = try server.client()
        client.send(Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 2000\r\n\r\n".utf8))
        let sent = Self.trickle([UInt8](repeating: 65, count: 2000), on: client)
        #expect(sent != nil, "the connection stayed open for the whole body")
        #expect((sent ?? 2000) < 2000)
    }

    @Test func aClientAtItsConnectionLimitLeavesRoomForOthers() throws {
        let server = try TestServer { $0.maxConnectionsPerClient = 2 }
        let first = try server.client(from: "127.0.0.1")
        let second = try server.client(from: "127.0.0.1")
        #expect(try first.request("GET", "/echo").status == 200)
        #expect(try second.request("GET", "/echo").status == 200)

        // The third connection from the same address is told to come back later, then closed…
        let third = try server.client(from: "127.0.0.1")
        let refused = try third.request("GET", "/echo")
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "2")
        #expect(refused.header("Connection") == "close")
        #expect(third.isClosedByServer())
        // …while another address is served.
        let neighbour = try server.client(from: "127.0.0.2")
        let reply = try neighbour.request("GET", "/echo")
        #expect(reply.status == 200)
        #expect(try reply.echo().client == "127.0.0.2")
        // Still open: the first two keep working.
        #expect(try first.request("GET", "/echo").status == 200)
    }

    @Test func theThirtyThirdConnectionFromOneAddressGetsAnAnswerWithTheDefaultLimit() throws {
        let server = try TestServer()
        let limit = ServerConfiguration().maxConnectionsPerClient
        #expect(limit == 32)
        // Each one answered, so each is counted before the next opens.
        let held = try (0..<limit).map { _ in
            let client = try server.client()
            #expect(try client.request("GET", "/echo").status == 200)
            return client
        }
        let reply = try server.client().request("GET", "/echo")
        #expect(reply.status == 503)
        #expect(reply.header("Retry-After") == "2")
        #expect(reply.text.contains("try again"))
        // The others keep their connections.
        #expect(try held[0].request("GET", "/echo").status == 200)
    }

    @Test func aTrustedProxysConnectionsAreCountedByTheClientItForwards() throws {
        let server = try TestServer {
            $0.maxConnectionsPerClient = 2
            $0.trustedProxies = ["127.0.0.1"]
        }
        // Four members behind one proxy: more connections than one client may hold.
        let members = ["192.168.1.21", "192.168.1.22", "192.168.1.23", "192.168.1.24"]
        let held = try members.map { member in
            let client = try server.client(from: "127.0.0.1")
            let reply = try client.request("GET", "/echo", headers: [("X-Forwarded-For", "203.0.113.9, \(member)")])
            #expect(reply.status == 200)
            #expect(try reply.echo().client == member, "the last hop, added by the proxy")
            return client
        }
        // One member past its own limit is refused; the others are not.
        let second = try server.client(from: "127.0.0.1")
        #expect(try second.request("GET", "/echo", headers: [("X-Forwarded-For", "192.168.1.21")]).status == 200)
        let third = try server.client(from: "127.0.0.1")
        #expect(try third.request("GET", "/echo", headers: [("Forwarded", "for=192.168.1.21;proto=http")]).status == 503)
        #expect(try held[3].request("GET", "/echo", headers: [("X-Forwarded-For", "192.168.1.24")]).status == 200)
        // From anyone else the header is not believed.
        let reply = try server.client(from: "127.0.0.2").request("GET", "/echo", headers: [("X-Forwarded-For", "192.168.1.30")])
        #expect(try reply.echo().client == "127.0.0.2")
    }

    @Test func forwardedAddressesAreReadFromTheLastEntry() {
        #expect(ForwardedFor.address("\"[2001:db8::1]:4711\"") == "2001:db8::1")
        #expect(ForwardedFor.address(" 192.0.2.60:80") == "192.0.2.60")
        #expect(ForwardedFor.address("unknown") == nil)
        #expect(ForwardedFor.client(Headers([("Forwarded", "for=192.0.2.1, for=\"[2001:db8::7]\";proto=https")])) == "2001:db8::7")
        #expect(ForwardedFor.client(Headers([("X-Forwarded-For", "10.0.0.1, 10.0.0.2")])) == "10.0.0.2")
    }

    @Test func slowClientsOnManyAddressesCannotKeepANewcomerOut() throws {
        // Room for 8 connections; two "attackers" each open their 4, sending headers that never
        // end (no deadline cuts them here). Past 6 open, each newcomer makes room.
        let server = try TestServer {
            $0.maxConnections = 8
            $0.maxConnectionsPerClient = 4
            $0.headerDeadline = .seconds(3600)
            $0.inactivityTimeout = 3600
        }
        var slow: [RawHTTPClient] = []
        for address in ["127.0.0.2", "127.0.0.3"] {
            for _ in 0..<4 {
                let client = try server.client(from: address)
                client.send(Array("GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8))
                slow.append(client)
            }
        }
        // The server has made room by cutting the oldest slow connections of the busiest client.
        try waitUntil(upTo: 60) { slow.filter { $0.isClosedNow() }.count >= 2 }
        let newcomer = try server.client(from: "127.0.0.9")
        let reply = try newcomer.request("GET", "/echo")
        #expect(reply.status == 200)
        #expect(try reply.echo().client == "127.0.0.9")
        #expect(slow.filter { !$0.isClosedNow() }.count >= 4, "the slow clients still hold the rest")
    }

    @Test func theDefaultPerClientLimitFitsAHousehold() {
        let configuration = ServerConfiguration()
        #expect(configuration.maxConnectionsPerClient <= 32)
        #expect(configuration.maxConnections / configuration.maxConnectionsPerClient >= 16, "no few clients can fill the server")
    }

    @Test func clientsAreCountedByIPv4AddressAndIPv6Slash64() throws {
        #expect(ClientKey("2001:db8:1:2::1") == ClientKey("2001:db8:1:2:ffff:eeee:dddd:cccc"))
        #expect(ClientKey("2001:db8:1:2::1") != ClientKey("2001:db8:1:3::1"))
        #expect(ClientKey("192.168.1.20") == ClientKey("::ffff:192.168.1.20"))
        #expect(ClientKey("192.168.1.20") != ClientKey("192.168.1.21"))
        #expect(ClientKey("not an address") == nil)
        #expect(ClientKey("2001:db8:1:2::7")?.description == "2001:db8:1:2::/64")
    }

    @Test func tooManyQueryParametersGetAnAnswer() throws {
        let server = try TestServer()
        let query = (0..<2000).map { "k\($0)=v" }.joined(separator: "&")
        let reply = try server.client().request("GET", "/echo?\(query)")
        #expect([414, 431].contains(reply.status))
    }

    @Test func aChunkedBodyGetsOurOwnAnswerNotLibmicrohttpds() throws {
        let server = try TestServer()
        let client = try server.client()
        let zeros = String(repeating: "0", count: 100_000)
        client.send(
            Array("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n\(zeros)5\r\nhello\r\n0\r\n\r\n".utf8))
        let reply = try client.readReply()
        #expect(reply.status == 411)
        #expect(reply.text == "refused 411", "the responder's own page")
    }

    @Test func uploadsAreRefusedAtTheHeadersWhereTheResponderSaysSo() throws {
        let server = try TestServer()
        // Only the headers are sent: the answer comes without the body.
        let big = try server.client()
        big.send(Array("POST /small HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 2000000\r\n\r\n".utf8))
        #expect(try big.readReply().status == 413)
        let closed = try server.client()
        closed.send(Array("POST /closed HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 2000000\r\n\r\n".utf8))
        let refused = try closed.readReply()
        #expect(refused.status == 403)
        #expect(refused.text == "closed at the door")

        // A small body with a file part, where files are not allowed: refused, nothing on disk.
        let body = Array(
            "--bb\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.jpg\"\r\n\r\n\(String(repeating: "x", count: 100))\r\n--bb--\r\n".utf8)
        let file = try server.client().request("POST", "/small", headers: [("Content-Type", "multipart/form-data; boundary=bb")], body: body)
        #expect(file.status == 413, "\(file.text)")
        #expect(server.uploadsLeft().isEmpty)
        // Text fields within the limit are read.
        let form = try server.client().request("POST", "/small", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array("a=1".utf8))
        #expect(try form.echo().form == [["a", "1"]])
    }

    @Test func aStopDoesNotWaitForARequestStillReceivingItsBody() throws {
        let probe = Probe()
        // Neither the idle timeout nor the deadline may end the request first: only the stop.
        let server = try TestServer(probe: probe) {
            $0.inactivityTimeout = 3600
            $0.headerDeadline = .seconds(3600)
        }
        let client = try server.client()
        client.send(Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n0123456789".utf8))
        try waitUntil(upTo: 60) { probe.admitted == 1 }

        let stopped = stopInBackground(server.server, grace: .seconds(600))
        // The rest of the body is never sent: a stop that waited for it would wait the whole grace.
        try waitUntil(upTo: 120) { stopped.isSet }
        #expect(stopped.isSet)
        #expect(client.isClosedNow() || (try? client.readReply()) == nil, "dropped without an answer")
    }
}

final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}

/// Stops `server` on another thread; the flag is set once `shutdown` has returned.
func stopInBackground(_ server: Server, grace: Duration, runningLimit: Duration = .seconds(2)) -> Flag {
    let stopped = Flag()
    let stopper = Thread {
        server.shutdown(grace: grace, runningLimit: runningLimit)
        stopped.set()
    }
    stopper.start()
    return stopped
}

/// Polls `condition` until it holds or `seconds` pass (a generous bound for an event, not a measure).
func waitUntil(upTo seconds: Double, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline {
            Issue.record("condition not met within \(seconds) s")
            return
        }
        usleep(10_000)
    }
}
