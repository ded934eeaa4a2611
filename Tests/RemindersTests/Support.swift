import Foundation
import GRDB
import HTTPServer
import Logging
import Outbound
import Synchronization
import TestSupport
import Testing

@testable import Inventory
@testable import Reminders

/// A small ntfy-like server on loopback: records each request with the injected clock's time and
/// answers with the statuses it is given (200 once they run out).
final class FakePushServer: Responder, @unchecked Sendable {
    struct Received: Sendable {
        let method: String
        let path: String
        let headers: Headers
        let body: String
        let at: Date
    }

    private let state = Mutex<(received: [Received], statuses: [Int])>(([], []))
    let clock: ManualClock
    private var server: Server!
    /// When set, every request is recorded and then left unanswered until `release()`: an endpoint that hangs.
    private let holding: Mutex<DispatchSemaphore?>
    var port: UInt16 { server.port }
    var base: String { "http://127.0.0.1:\(port)" }

    init(clock: ManualClock, statuses: [Int] = [], holding: Bool = false) throws {
        self.clock = clock
        self.holding = Mutex(holding ? DispatchSemaphore(value: 0) : nil)
        state.withLock { $0.statuses = statuses }
        let uploads = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-fake-push-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        server = Server(configuration: ServerConfiguration(host: "127.0.0.1", port: 0, threads: 1, uploadDirectory: uploads), responder: self)
        try server.start()
    }

    func stop() {
        release()
        server.shutdown(grace: .seconds(1))
    }

    /// Lets held requests (and later ones) be answered.
    func release() {
        let gate = holding.withLock { gate in
            defer { gate = nil }
            return gate
        }
        for _ in 0..<16 { gate?.signal() }
    }

    func respond(to request: Request) -> Response {
        if request.path == "/redirect" { return .redirect(to: "/elsewhere", status: 302) }
        if request.path == "/big" { return Response(status: 200, contentType: "text/plain", text: String(repeating: "x", count: 100_000)) }
        let body =
            request.body.isEmpty
            ? request.form.pairs.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            : String(decoding: request.body, as: UTF8.self)
        let status = state.withLock { state -> Int in
            state.received.append(Received(method: request.method, path: request.path, headers: request.headers, body: body, at: clock.now))
            return state.statuses.isEmpty ? 200 : state.statuses.removeFirst()
        }
        if let gate = holding.withLock({ $0 }) { gate.wait() }
        return Response(status: status, contentType: "application/json", text: status == 200 ? "{\"id\":\"x\"}" : "{\"error\":\"server trouble\"}")
    }

    func respond(toRefused request: Request, status: Int) -> Response { Response(status: status) }

    var received: [Received] { state.withLock { $0.received } }
}

/// Records what would have been sent, at the injected clock's time; answers with scripted statuses.
final class RecordingSender: OutboundSending, @unchecked Sendable {
    struct Sent: Sendable {
        let url: URL
        let headers: [String: String]
        let body: String
        let at: Date
    }
    private let state = Mutex<(sent: [Sent], statuses: [Int])>(([], []))
    let clock: ManualClock

    init(clock: ManualClock, statuses: [Int] = []) {
        self.clock = clock
        state.withLock { $0.statuses = statuses }
    }

    func send(method: String, url: URL, headers: [(String, String)], body: [UInt8], timeout: TimeInterval, maxResponseBytes: Int) async throws(OutboundError)
        -> OutboundResponse
    {
        let status = state.withLock { state -> Int in
            state.sent.append(
                Sent(url: url, headers: Dictionary(headers, uniquingKeysWith: { $1 }), body: String(decoding: body, as: UTF8.self), at: clock.now))
            return state.statuses.isEmpty ? 200 : state.statuses.removeFirst()
        }
        return OutboundResponse(status: status)
    }

    var sent: [Sent] { state.withLock { $0.sent } }
}

/// Waits until the engine has gone back to sleep after the last wake the test sent: whatever that
/// wake made it do (or wrongly do) is done, however late a loaded machine runs it.
func settle(_ sleeper: ManualSleeper) async throws {
    try await eventually("the engine back asleep") { sleeper.isSettled }
}

/// A household with a fridge and a shopping list, a clock, a sleeper and an engine to run.
struct EngineFixture {
    let database: AppDatabase
    let clock: ManualClock
    let sleeper: ManualSleeper
    let accounts: Accounts
    let items: Items
    let channels: PushChannels
    let outbox: Outbox
    var household = HouseholdScope(1)
    var memberId: Int64 = 0
    var fridgeId: Int64 = 0
    var shoppingId: Int64 = 0
    let zone: TimeZone

    static let hasher = Argon2id(opsLimit: 1, memLimit: 8192)

    init(timeZone: String = "Asia/Tokyo", start: Date, database: AppDatabase? = nil, language: String = "en") throws {
        self.database = try database ?? AppDatabase.inMemory()
        clock = ManualClock(start)
        sleeper = ManualSleeper(clock: clock)
        accounts = Accounts(database: self.database, hasher: Self.hasher, clock: clock.wall)
        items = Items(database: self.database, clock: clock.wall)
        channels = PushChannels(database: self.database, clock: clock.wall)
        outbox = Outbox(database: self.database, clock: clock.wall)
        zone = TimeZone(identifier: timeZone)!
        if try accounts.hasHousehold() {
            household = HouseholdScope(1)
        } else {
            // Folder names come from the setup page's catalog: a Japanese household's as ja.json names them.
            let folderNames =
                language == "ja" ? ["starter_fridge": "冷蔵庫", "starter_freezer": "冷凍庫", "starter_pantry": "パントリー", "starter_supermarket": "スーパー"] : [:]
            household = try Fixture(language: language, database: self.database, clock: clock, userAgent: "t", folderNames: folderNames).household
            try HouseholdSettings(database: self.database).update(household, name: "Home", timeZone: timeZone, dueSoonDays: "3")
        }
        memberId = try self.database.writer.read { db in
            try Int64.fetchOne(db, sql: "SELECT id FROM member WHERE household_id = ? ORDER BY id", arguments: [household.householdId])!
        }
        fridgeId = try items.folders(in: household, kind: .stock)[0].id!
        shoppingId = try items.folders(in: household, kind: .shopping)[0].id!
    }

    /// Registers a stock item with a reminder typed as the household's local time ("2026-11-23T09:00").
    @discardableResult
    func item(_ name: String, due: String, remind: String?, in folder: Int64? = nil, household: HouseholdScope? = nil) throws -> Int64 {
        var input = ItemInput()
        input.name = name
        input.due = due
        input.remindAt = remind ?? ""
        let household = household ?? self.household
        let folderId = try folder ?? items.folders(in: household, kind: .stock)[0].id!
        let member = try database.writer.read { db in
            try Int64.fetchOne(db, sql: "SELECT id FROM member WHERE household_id = ? ORDER BY id", arguments: [household.householdId])
        }
        return try items.register([input], into: folderId, in: household, by: member ?? memberId, timeZone: zone)[0]
    }

    func engine(sender: any OutboundSending, texts: ReminderTexts = .english, timeout: TimeInterval = 5) -> ReminderEngine {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return ReminderEngine(
            database: database, clock: clock.wall, sleeper: sleeper, delivery: PushDelivery(sender: sender, timeout: timeout), texts: texts, logger: logger)
    }

    func ntfy(_ url: String, topic: String = "home", token: String = "", digestHour: String = "", household: HouseholdScope? = nil) throws {
        try channels.save(
            PushChannelInput(kind: "ntfy", url: url, topic: topic, accessToken: token, digestHour: digestHour), in: household ?? self.household)
    }

    func messages(_ state: String? = nil) throws -> [PushMessage] {
        try database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM push_message WHERE ? IS NULL OR state = ? ORDER BY id", arguments: [state, state]).map(
                PushMessage.init(row:))
        }
    }
}

/// Runs an engine for the length of `body`, then stops it as its owner does (cancels its task) and
/// waits until it has. The engine runs on a thread of its own, as it would on an idle server, not
/// behind other suites' work on the pool.
func running(_ engine: ReminderEngine, _ body: () async throws -> Void) async throws {
    let task = Task(executorPreference: ThreadExecutor("zaiko.test.engine")) { await engine.run() }
    do {
        try await body()
    } catch {
        task.cancel()
        await task.value
        throw error
    }
    task.cancel()
    await task.value
}
