import Foundation
import HTTPServer
import Inventory
import TestSupport
import Testing

@testable import Web

/// `GET /events` over a real socket: a member's stream carries their household's changes and
/// nothing else, picks up where a reconnect left off, beats, and ends with the session.
@Suite struct LiveEventsTests {
    @Test func aStreamCarriesTheHouseholdsChangesWithWhoMadeThem() async throws {
        let live = try await LiveServer()
        let events = try live.events(as: live.fixture.owner)
        let ready = try events.next()
        #expect(ready.event == "ready")
        let start = try #require(Int64(ready.data))
        #expect(ready.id == "\(start)")

        // Grandparents' change first: Home's stream must skip it and show Ken's tap next.
        let otherMember = try #require(try live.fixture.accounts.session(token: live.fixture.otherOwner))
        let otherFolder = try Folders(database: live.fixture.app.database).create(name: "Pantry", kind: .stock, icon: "box", in: otherMember.household)
        var jam = ItemInput()
        jam.name = "Jam"
        _ = try live.fixture.items.register([jam], into: otherFolder, in: otherMember.household, by: otherMember.memberId, timeZone: .gmt)
        let tap = try live.fixture.send("POST", "/items/\(live.fixture.itemId)/quantity", as: live.fixture.member, form: [("delta", "1")])
        #expect(tap.status == 303)

        let changes = try events.next()
        #expect(changes.event == "changes")
        let sent = try JSONDecoder().decode([SentChange].self, from: Data(changes.data.utf8))
        #expect(sent.count == 1)
        #expect(sent.first?.entity == "item")
        #expect(sent.first?.id == live.fixture.itemId.rawValue)
        #expect(sent.first?.kind == "changed")
        #expect(sent.first?.by == "Ken")
        #expect(sent.first?.to == live.fixture.fridgeId.rawValue)
        #expect(changes.id == "\(try #require(sent.last?.seq))")
        #expect((sent.first?.seq ?? 0) > start)
    }

    @Test func aReconnectGetsWhatItMissedAndAStreamAheadOfTheFeedReloads() async throws {
        let live = try await LiveServer()
        let before = try #require(Int64(try live.events(as: live.fixture.owner).next().data))
        for _ in 0..<3 {
            _ = try live.fixture.send("POST", "/items/\(live.fixture.itemId)/quantity", as: live.fixture.member, form: [("delta", "1")])
        }
        let reconnect = try live.events(as: live.fixture.owner, headers: [("Last-Event-ID", "\(before)")])
        #expect(try reconnect.next().data == "\(before)")
        let missed = try JSONDecoder().decode([SentChange].self, from: Data(try reconnect.next().data.utf8))
        #expect(missed.map(\.kind) == ["changed", "changed", "changed"])
        #expect(missed.map(\.seq) == missed.map(\.seq).sorted())

        // A number the feed never reached (the database was restored from an older backup).
        let ahead = try live.events(as: live.fixture.owner, headers: [("Last-Event-ID", "\(before + 1000)")])
        _ = try ahead.next()
        let reload = try ahead.next()
        #expect(reload.event == "reload")
        #expect(reload.data == "\((missed.last?.seq ?? 0))")
    }

    @Test func aStreamBeatsAndEndsWhenItsSessionSignsOut() async throws {
        var limits = LiveEventLimits()
        limits.heartbeat = .milliseconds(20)
        let live = try await LiveServer(limits: limits)
        let events = try live.events(as: live.fixture.member)
        _ = try events.next()
        #expect(try events.next().isComment, "a heartbeat comment")

        #expect(try live.fixture.send("POST", "/logout", as: live.fixture.member).status == 303)
        #expect(try events.nextEvent().event == "signed-out")
        #expect(try events.ended())
    }

    @Test func aMembersNewestStreamEndsTheirOldestPastTheirCapAndTheServerRefusesPastItsOwn() async throws {
        var limits = LiveEventLimits()
        limits.perMember = 2
        limits.total = 3
        let live = try await LiveServer(limits: limits)
        let first = try live.events(as: live.fixture.owner)
        _ = try first.next()
        let second = try live.events(as: live.fixture.owner)
        // The owner's third (a page left behind the first): the first ends, the third is served.
        let third = try live.events(as: live.fixture.owner)
        #expect(try third.next().event == "ready")
        #expect(try first.ended(), "the oldest ended")
        let others = try live.events(as: live.fixture.member)
        #expect(try live.open(as: live.fixture.viewer).status == 503, "the server's fourth")
        // Pages are answered meanwhile.
        #expect(try RawHTTPClient(port: live.port).request("GET", "/healthz").status == 200)
        _ = (second, others)
    }

    @Test func noStreamWithoutASession() async throws {
        let live = try await LiveServer()
        let reply = try RawHTTPClient(port: live.port).request("GET", "/events")
        #expect(reply.status != 200)
        #expect(reply.header("content-type")?.hasPrefix("text/event-stream") != true)
    }

    @Test func aThousandIdleStreamsHoldNoAnsweringThread() async throws {
        var limits = LiveEventLimits()
        limits.perMember = 1000
        limits.total = 1000
        let live = try await LiveServer(limits: limits, threads: 1)
        let streams = try (0..<1000).map { _ in
            let events = try live.events(as: live.fixture.owner)
            _ = try events.next()
            return events
        }
        #expect(live.fixture.app.live.openStreams == 1000)
        // The one answering thread is free for pages, and a change still reaches every stream.
        _ = try live.fixture.send("POST", "/items/\(live.fixture.itemId)/quantity", as: live.fixture.member, form: [("delta", "1")])
        for events in [streams[0], streams[499], streams[999]] {
            // Opening a thousand streams on a loaded machine can outlast a heartbeat interval.
            #expect(try events.nextEvent().event == "changes")
        }
        let page = try RawHTTPClient(port: live.port).request("GET", "/", headers: [("Cookie", "zaiko_session=\(live.fixture.member)")])
        #expect(page.status == 200)
    }
}

/// A change as the page's script reads it (`LiveEventMessage.ChangeJSON`).
private struct SentChange: Decodable {
    let seq: Int64
    let entity: String
    let id: Int64
    let kind: String
    let to: Int64?
    let by: String?
}

/// The app over a real listener on port 0.
private final class LiveServer {
    let fixture: HouseholdFixture
    let server: Server
    var port: UInt16 { server.port }

    init(limits: LiveEventLimits = LiveEventLimits(), threads: Int = 2) async throws {
        fixture = try await HouseholdFixture(liveEvents: limits)
        let uploads = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, threads: threads, uploadDirectory: uploads)
        configuration.maxConnections = 2048
        configuration.maxConnectionsPerClient = 2048
        server = Server(configuration: configuration, responder: fixture.app)
        try server.start()
    }

    deinit { server.shutdown(grace: .seconds(1)) }

    /// The answer's head to `GET /events` as the holder of `session`.
    func open(as session: String, headers: [(String, String)] = []) throws -> RawHTTPClient.Reply {
        try RawHTTPClient(port: port).request("GET", "/events", headers: [("Cookie", "zaiko_session=\(session)")] + headers)
    }

    /// An open stream as the holder of `session`.
    func events(as session: String, headers: [(String, String)] = []) throws -> EventReader {
        let client = try RawHTTPClient(port: port)
        let head = try client.request("GET", "/events", headers: [("Cookie", "zaiko_session=\(session)")] + headers)
        guard head.status == 200 else { throw POSIXError(.ECONNREFUSED) }
        return EventReader(client)
    }
}

/// Reads Server-Sent Events from a chunked body, one at a time.
private final class EventReader {
    struct Event {
        var event: String?
        var id: String?
        var data = ""
        var isComment = false
    }

    let client: RawHTTPClient
    private var text = ""
    private var finished = false

    init(_ client: RawHTTPClient) { self.client = client }

    func next() throws -> Event {
        while !text.contains("\n\n") {
            let chunk = try client.readChunk()
            if chunk.isEmpty { throw POSIXError(.ECONNRESET) }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let end = text.range(of: "\n\n")!
        let block = text[..<end.lowerBound]
        text = String(text[end.upperBound...])
        var event = Event()
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") {
                event.isComment = true
            } else if line.hasPrefix("event: ") {
                event.event = String(line.dropFirst(7))
            } else if line.hasPrefix("id: ") {
                event.id = String(line.dropFirst(4))
            } else if line.hasPrefix("data: ") {
                event.data = String(line.dropFirst(6))
            }
        }
        return event
    }

    /// Whether the body ended (the last chunk came) after what was read.
    /// The next event that is not a heartbeat comment.
    func nextEvent() throws -> Event {
        var event = try next()
        while event.isComment { event = try next() }
        return event
    }

    func ended() throws -> Bool {
        try text.isEmpty && client.readChunk().isEmpty
    }
}
