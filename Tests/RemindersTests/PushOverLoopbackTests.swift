import Foundation
import GRDB
import Outbound
import Synchronization
import TestSupport
import Testing

@testable import Inventory
@testable import Reminders

/// The real outbound HTTP path against a fake ntfy server on loopback.
@Suite("Push over loopback", .serialized)
struct PushOverLoopbackTests {
    @Test func aReminderReachesTheFakeNtfyServerWithinASecondOfItsTime() async throws {
        let fixture = try EngineFixture(timeZone: "Asia/Tokyo", start: utc("2026-11-22T23:59:00Z"))
        let server = try FakePushServer(clock: fixture.clock)
        defer { server.stop() }
        try fixture.ntfy(server.base, topic: "tanaka-fridge", token: "tk_secret123")
        try fixture.item("Milk, 1L", due: "2026-11-24", remind: "2026-11-23T09:00")
        try await running(fixture.engine(sender: OutboundHTTP(policy: .anywhere))) {
            try await eventually { fixture.sleeper.deadline == utc("2026-11-23T00:00:00Z") }
            fixture.sleeper.advance(to: utc("2026-11-23T00:00:00Z"))
            try await eventually("the push") { server.received.count == 1 }
            try await eventually { try fixture.messages("sent").count == 1 }
        }
        let push = server.received[0]
        #expect(abs(push.at.timeIntervalSince(utc("2026-11-23T00:00:00Z"))) < 1)
        #expect(push.method == "POST")
        #expect(push.path == "/tanaka-fridge")
        #expect(push.body == "Milk, 1L (Fridge, due 2026-11-24)")
        #expect(push.headers["title"] == "Reminder: Milk, 1L")
        #expect(push.headers["tags"] == "alarm_clock")
        #expect(push.headers["priority"] == "high")
        #expect(push.headers["authorization"] == "Bearer tk_secret123")
        #expect(push.headers["content-type"]?.hasPrefix("text/plain") == true)
        #expect(push.headers["cookie"] == nil)
    }

    @Test func a500IsRetriedAfterAMinute() async throws {
        let fixture = try EngineFixture(timeZone: "UTC", start: utc("2026-11-22T09:00:00Z"))
        let server = try FakePushServer(clock: fixture.clock, statuses: [500])
        defer { server.stop() }
        try fixture.ntfy(server.base)
        try fixture.item("Milk", due: "2026-11-25", remind: "2026-11-22T09:00")
        try await running(fixture.engine(sender: OutboundHTTP(policy: .anywhere))) {
            try await eventually("first attempt") { server.received.count == 1 }
            try await eventually("waiting for the retry") { fixture.sleeper.deadline == utc("2026-11-22T09:01:00Z") }
            let waiting = try fixture.messages("pending")
            #expect(waiting.count == 1)
            #expect(waiting.first?.lastError == .status(500), "only the status is kept, never the body")
            let stored = try await fixture.database.writer.read { db in try String.fetchOne(db, sql: "SELECT last_error FROM push_message") }
            #expect(stored == "HTTP 500", "no byte of the answer's body is kept")
            fixture.sleeper.advance(60)
            try await eventually("retried") { server.received.count == 2 }
            try await eventually { try fixture.messages("sent").count == 1 }
        }
        #expect(server.received[0].body == server.received[1].body)
        #expect(server.received[1].at == utc("2026-11-22T09:01:00Z"))
    }

    @Test func nothingIsSentForAnotherHousehold() async throws {
        let fixture = try EngineFixture(timeZone: "UTC", start: utc("2026-11-22T08:00:00Z"))
        let ours = try FakePushServer(clock: fixture.clock)
        let theirs = try FakePushServer(clock: fixture.clock)
        defer {
            ours.stop()
            theirs.stop()
        }
        // Grandparents: a second household on the same server, with its own channel.
        let invitation = try fixture.accounts.createHousehold(name: "Grandparents")
        _ = try fixture.accounts.acceptInvitation(token: invitation, name: "Grandma", login: "grandma", password: "correct horse battery", userAgent: "")
        let grandparents = try await fixture.database.writer.read { db in
            HouseholdScope(try Household.ID.fetchOne(db, sql: "SELECT id FROM household WHERE name = 'Grandparents'")!)
        }
        // A third without a channel at all.
        let lone = try fixture.accounts.createHousehold(name: "Lone")
        _ = try fixture.accounts.acceptInvitation(token: lone, name: "Solo", login: "solo", password: "correct horse battery", userAgent: "")
        let loneId = try await fixture.database.writer.read { db in
            HouseholdScope(try Household.ID.fetchOne(db, sql: "SELECT id FROM household WHERE name = 'Lone'")!)
        }
        try fixture.ntfy(ours.base, topic: "ours")
        try fixture.ntfy(theirs.base, topic: "theirs", household: grandparents)
        try fixture.item("Our milk", due: "2026-11-25", remind: "2026-11-22T09:00")
        try fixture.item("Their medicine", due: "2026-11-25", remind: "2026-11-22T09:00", household: grandparents)
        try fixture.item("Lone tofu", due: "2026-11-25", remind: "2026-11-22T09:00", household: loneId)
        try await running(fixture.engine(sender: OutboundHTTP(policy: .anywhere))) {
            fixture.sleeper.advance(to: utc("2026-11-22T09:00:00Z"))
            try await eventually { ours.received.count == 1 && theirs.received.count == 1 }
            try await settle(fixture.sleeper)
        }
        #expect(ours.received.map(\.body) == ["Our milk (Fridge, due 2026-11-25)"])
        #expect(theirs.received.map(\.body) == ["Their medicine (Fridge, due 2026-11-25)"])
        #expect(ours.received[0].path == "/ours")
        #expect(theirs.received[0].path == "/theirs")
    }

    @Test func aHouseholdWhoseEndpointHangsDoesNotHoldUpAnother() async throws {
        let fixture = try EngineFixture(timeZone: "UTC", start: utc("2026-11-22T08:00:00Z"))
        // A's endpoint takes each request and never answers (until the test lets it); B's answers at once.
        let hanging = try FakePushServer(clock: fixture.clock, holding: true)
        let quick = try FakePushServer(clock: fixture.clock)
        defer {
            hanging.stop()
            quick.stop()
        }
        let invitation = try fixture.accounts.createHousehold(name: "Neighbours")
        _ = try fixture.accounts.acceptInvitation(token: invitation, name: "Ben", login: "ben", password: "correct horse battery", userAgent: "")
        let neighbours = try await fixture.database.writer.read { db in
            HouseholdScope(try Household.ID.fetchOne(db, sql: "SELECT id FROM household WHERE name = 'Neighbours'")!)
        }
        try fixture.ntfy(hanging.base, topic: "a")
        try fixture.ntfy(quick.base, topic: "b", household: neighbours)
        // A's reminder is the older one, so a single queue would send it first and wait on it.
        try fixture.item("A's milk", due: "2026-11-25", remind: "2026-11-22T08:59")
        try fixture.item("B's tofu", due: "2026-11-25", remind: "2026-11-22T09:00", household: neighbours)
        // The outbound deadline is far away: only a separate delivery lets B's message through meanwhile.
        try await running(fixture.engine(sender: OutboundHTTP(policy: .anywhere), timeout: 3600)) {
            fixture.sleeper.advance(to: utc("2026-11-22T09:00:00Z"))
            try await eventually("A's request is held open") { hanging.received.count == 1 }
            try await eventually("B's message arrives while A's request is still held") { quick.received.count == 1 }
            try await eventually("B's message is recorded as sent") { try fixture.messages("sent").count == 1 }
            #expect(hanging.received.count == 1)
            #expect(try fixture.messages("pending").count == 1, "A's message still waits for its answer")
            hanging.release()
            try await eventually("A's message is sent once answered") { try fixture.messages("sent").count == 2 }
        }
        #expect(quick.received.map(\.body) == ["B's tofu (Fridge, due 2026-11-25)"])
        #expect(hanging.received.map(\.body) == ["A's milk (Fridge, due 2026-11-25)"])
    }

    @Test func aWebhookGetsJSONWithNameDueAndFolderOnly() async throws {
        let fixture = try EngineFixture(timeZone: "UTC", start: utc("2026-11-22T09:00:00Z"))
        let server = try FakePushServer(clock: fixture.clock)
        defer { server.stop() }
        try fixture.channels.save(PushChannelInput(kind: "webhook", url: server.base + "/hooks/zaiko?key=1"), in: fixture.household)
        try fixture.item("Milk", due: "2026-11-25", remind: "2026-11-22T09:00")
        try fixture.item("Eggs", due: "2026-11-26", remind: "2026-11-22T09:00")
        try await running(fixture.engine(sender: OutboundHTTP(policy: .anywhere))) {
            try await eventually { server.received.count == 1 }
        }
        let hook = server.received[0]
        #expect(hook.path == "/hooks/zaiko")
        #expect(hook.headers["content-type"] == "application/json")
        #expect(hook.headers["authorization"] == nil)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(hook.body.utf8)) as? [String: Any])
        #expect(Set(json.keys) == ["title", "message", "items"])
        #expect(json["title"] as? String == "2 reminders")
        let items = try #require(json["items"] as? [[String: String]])
        #expect(items == [["name": "Milk", "due": "2026-11-25", "folder": "Fridge"], ["name": "Eggs", "due": "2026-11-26", "folder": "Fridge"]])
    }

    @Test func aTestMessageIsSentOnceAndReportsItsError() async throws {
        let fixture = try EngineFixture(timeZone: "UTC", start: utc("2026-11-22T09:00:00Z"))
        let server = try FakePushServer(clock: fixture.clock, statuses: [200, 401])
        defer { server.stop() }
        try fixture.ntfy(server.base)
        try await running(fixture.engine(sender: OutboundHTTP(policy: .anywhere))) {
            let good = try fixture.outbox.enqueueTest(in: fixture.household, title: "Zaiko test", body: "Push works")
            try await eventually { try fixture.outbox.message(good, in: fixture.household)?.state == .sent }
            let bad = try fixture.outbox.enqueueTest(in: fixture.household, title: "Zaiko test", body: "Push works")
            try await eventually { try fixture.outbox.message(bad, in: fixture.household)?.state == .failed }
            #expect(try fixture.outbox.message(bad, in: fixture.household)?.lastError == .status(401))
            try await settle(fixture.sleeper)
        }
        #expect(server.received.count == 2, "a failed test is not retried")
        #expect(server.received[0].headers["tags"] == "white_check_mark")
    }
}

@Suite("Outbound HTTP")
struct OutboundHTTPTests {
    @Test func followsNoRedirect() async throws {
        let server = try FakePushServer(clock: ManualClock())
        defer { server.stop() }
        let response = try await OutboundHTTP(policy: .anywhere).send(
            method: "POST", url: URL(string: server.base + "/redirect")!, headers: [("Content-Type", "text/plain")], body: Array("hi".utf8), timeout: 5)
        #expect(response.status == 302)
        #expect(response.headers["location"] == "/elsewhere")
        // The redirect's target was never asked for.
        #expect(server.received.isEmpty)
    }

    /// A server that answers one byte every 100 ms: each byte would restart URLSession's own timer.
    @Test func aDrippingServerIsCutOffAtTheDeadline() async throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        listen(listener, 4)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        let port = UInt16(bigEndian: address.sin_port)
        // The server drips one byte of a 1000-byte body every 100 ms and notes when the client
        // hangs up. URLSession restarts its own timeout at every byte, so only Zaiko's deadline can
        // end the request before the body is complete; no wall-clock bound is needed to tell.
        struct Drip {
            var sent = 0
            var clientLeft = false
            var done = false
        }
        let drip = Mutex(Drip())
        Thread.detachNewThread {
            let client = accept(listener, nil, nil)
            var request = [UInt8](repeating: 0, count: 4096)
            _ = read(client, &request, request.count)
            let head = Array("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n".utf8)
            // MSG_NOSIGNAL: once the client gives up, a write must fail, not raise SIGPIPE in the test process.
            _ = send(client, head, head.count, Int32(MSG_NOSIGNAL))
            // Gives up after 999 bytes (100 s): never the whole body, so a client without a
            // deadline ends with the server's close, a transport error, not a timeout.
            for _ in 0..<999 {
                if send(client, "x", 1, Int32(MSG_NOSIGNAL)) < 0 {
                    drip.withLock { $0.clientLeft = true }
                    break
                }
                drip.withLock { $0.sent += 1 }
                usleep(100_000)
            }
            close(client)
            close(listener)
            drip.withLock { $0.done = true }
        }
        await #expect(throws: OutboundError.timedOut) {
            _ = try await OutboundHTTP(policy: .anywhere).send(method: "GET", url: URL(string: "http://127.0.0.1:\(port)/")!, timeout: 2)
        }
        try await eventually("the server notices the client hung up") { drip.withLock { $0.done } }
        let seen = drip.withLock { $0 }
        #expect(seen.clientLeft, "the client stayed until the server gave up after \(seen.sent) bytes")
        #expect(seen.sent < 999)
    }

    @Test func refusesOtherSchemes() async throws {
        for address in ["file:///etc/passwd", "ftp://example.com/x", "gopher://127.0.0.1:70/"] {
            await #expect(throws: OutboundError.unsupportedURL(address)) {
                _ = try await OutboundHTTP(policy: .anywhere).send(method: "GET", url: URL(string: address)!, timeout: 1)
            }
        }
    }

    @Test func stopsReadingPastTheLimit() async throws {
        let server = try FakePushServer(clock: ManualClock())
        defer { server.stop() }
        await #expect(throws: OutboundError.responseTooLarge(limit: 1000)) {
            _ = try await OutboundHTTP(policy: .anywhere).send(method: "GET", url: URL(string: server.base + "/big")!, timeout: 5, maxResponseBytes: 1000)
        }
    }

    @Test func aClosedPortIsATransportError() async throws {
        // Bind and release a port, so nothing listens there.
        let server = try FakePushServer(clock: ManualClock())
        let address = server.base
        server.stop()
        do {
            _ = try await OutboundHTTP(policy: .anywhere).send(method: "POST", url: URL(string: address + "/x")!, timeout: 3)
            Issue.record("a closed port answered")
        } catch {
            if case .transport = error {} else { Issue.record("unexpected \(error)") }
        }
    }

    @Test func sendsTheBodyAndHeadersAsGiven() async throws {
        let server = try FakePushServer(clock: ManualClock())
        defer { server.stop() }
        let response = try await OutboundHTTP(policy: .anywhere).send(
            method: "POST", url: URL(string: server.base + "/topic")!, headers: [("Title", "Hello"), ("Content-Type", "text/plain")],
            body: Array("body text".utf8), timeout: 5)
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"id\":\"x\"}")
        #expect(server.received.first?.body == "body text")
        #expect(server.received.first?.headers["title"] == "Hello")
    }
}
