import Foundation
import GRDB

public enum PushKind: String, Sendable, CaseIterable, Codable {
    /// An ntfy server (or one that speaks its protocol): POST {server}/{topic}, the text as body.
    case ntfy
    /// Any address that takes a JSON POST: {"title", "message", "items"}.
    case webhook
}

/// The household's push channel as stored. The access token is needed to send and never shown.
public struct PushChannel: Sendable, Equatable {
    public let householdId: Int64
    public let kind: PushKind
    /// The ntfy server ("https://ntfy.example") or the webhook's full address.
    public let url: String
    public let topic: String
    public let accessToken: String?
    /// Local hour of the daily digest (household time zone), or nil for none.
    public let digestHour: Int?
    public let digestSentOn: String?

    /// Where messages are posted: the only address the server ever sends them to.
    public var target: URL? {
        switch kind {
        case .ntfy:
            let base = url.hasSuffix("/") ? String(url.dropLast()) : url
            return URL(string: base + "/" + topic)
        case .webhook:
            return URL(string: url)
        }
    }

    init(row: Row) {
        householdId = row["household_id"]
        kind = PushKind(rawValue: row["kind"]) ?? .ntfy
        url = row["url"]
        topic = row["topic"]
        accessToken = row["access_token"]
        digestHour = row["digest_hour"]
        digestSentOn = row["digest_sent_on"]
    }
}

/// What the owner typed into the push channel form.
public struct PushChannelInput: Sendable, Equatable {
    public var kind = "ntfy"
    public var url = ""
    public var topic = ""
    /// Empty keeps the stored token.
    public var accessToken = ""
    public var clearAccessToken = false
    /// "" for no digest, else 0…23.
    public var digestHour = ""

    public init(kind: String = "ntfy", url: String = "", topic: String = "", accessToken: String = "", clearAccessToken: Bool = false, digestHour: String = "") {
        self.kind = kind
        self.url = url
        self.topic = topic
        self.accessToken = accessToken
        self.clearAccessToken = clearAccessToken
        self.digestHour = digestHour
    }
}

/// One item as a message may carry it: its name, due date and folder, nothing more.
public struct PushItem: Codable, Sendable, Equatable {
    public let name: String
    public let due: String
    public let folder: String

    public init(name: String, due: String, folder: String) {
        self.name = name
        self.due = due
        self.folder = folder
    }
}

/// A message in the outbox.
public struct PushMessage: Sendable, Equatable {
    public enum State: String, Sendable { case pending, sent, failed }
    public let id: Int64
    public let householdId: Int64
    public let kind: String
    public let title: String
    public let body: String
    public let items: [PushItem]
    public let state: State
    public let attempts: Int
    public let nextAttemptAt: String
    public let lastError: String?
    public let createdAt: String
    public let sentAt: String?

    public init(row: Row) {
        id = row["id"]
        householdId = row["household_id"]
        kind = row["kind"]
        title = row["title"]
        body = row["body"]
        items = (try? JSONDecoder().decode([PushItem].self, from: Data((row["items"] as String? ?? "[]").utf8))) ?? []
        state = State(rawValue: row["state"]) ?? .pending
        attempts = row["attempts"]
        nextAttemptAt = row["next_attempt_at"]
        lastError = row["last_error"]
        createdAt = row["created_at"]
        sentAt = row["sent_at"]
    }
}

/// What settings shows about the channel: the last message sent, the last failure, what waits.
public struct PushStatus: Sendable, Equatable {
    public var lastSentAt: String?
    public var lastError: String?
    public var lastErrorAt: String?
    /// Messages waiting for a retry, and the earliest retry.
    public var waiting: Int = 0
    public var nextRetryAt: String?
    /// Messages given up after every retry.
    public var failed: Int = 0
}

/// The household's push channel (owners set it) and its outbox.
public struct PushChannels: Sendable {
    let database: AppDatabase
    let clock: WallClock

    public init(database: AppDatabase, clock: WallClock = .system) {
        self.database = database
        self.clock = clock
    }

    public func channel(householdId: Int64) throws -> PushChannel? {
        try database.writer.read { db in try Self.channel(db, householdId) }
    }

    public static func channel(_ db: Database, _ householdId: Int64) throws -> PushChannel? {
        try Row.fetchOne(db, sql: "SELECT * FROM push_channel WHERE household_id = ?", arguments: [householdId]).map(PushChannel.init(row:))
    }

    /// Checks and stores the channel. Errors are message keys by field (`url`, `topic`, `access_token`,
    /// `digest_hour`, `kind`). Messages waiting for a retry are tried again at once with the new settings.
    public func save(_ input: PushChannelInput, householdId: Int64) throws {
        var errors: [String: String] = [:]
        let kind = PushKind(rawValue: input.kind)
        if kind == nil { errors["kind"] = "push_kind_invalid" }
        let url = input.url.trimmingCharacters(in: .whitespacesAndNewlines)
        if url.isEmpty {
            errors["url"] = "push_url_required"
        } else if !Self.isWebAddress(url) {
            errors["url"] = "push_url_invalid"
        }
        let topic = input.topic.trimmingCharacters(in: .whitespacesAndNewlines)
        if kind == .ntfy {
            if topic.isEmpty {
                errors["topic"] = "push_topic_required"
            } else if !Self.isTopic(topic) {
                errors["topic"] = "push_topic_invalid"
            }
        }
        let token = input.accessToken.trimmingCharacters(in: .whitespaces)
        if !token.isEmpty, !(token.utf8.count <= 500 && token.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }) {
            errors["access_token"] = "push_token_invalid"
        }
        var hour: Int?
        let hourText = input.digestHour.trimmingCharacters(in: .whitespaces)
        if !hourText.isEmpty {
            if let value = Int(hourText), (0...23).contains(value) { hour = value } else { errors["digest_hour"] = "digest_hour_invalid" }
        }
        if !errors.isEmpty { throw InventoryError.validation(errors) }

        let now = clock.now()
        try database.writer.write { db in
            let existing = try Self.channel(db, householdId)
            let storedToken = input.clearAccessToken ? nil : (token.isEmpty ? existing?.accessToken : token)
            // A digest hour already past today starts tomorrow; an unchanged hour keeps its day.
            var sentOn = existing?.digestHour == hour ? existing?.digestSentOn : nil
            if let hour, sentOn == nil {
                let zone = try Self.timeZone(db, householdId)
                let today = CalendarDay.today(in: zone, now: now)
                if let start = Self.digestInstant(day: today, hour: hour, in: zone), start <= now { sentOn = today.description }
            }
            try db.execute(sql: """
                INSERT INTO push_channel (household_id, kind, url, topic, access_token, digest_hour, digest_sent_on, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (household_id) DO UPDATE SET kind = excluded.kind, url = excluded.url, topic = excluded.topic,
                    access_token = excluded.access_token, digest_hour = excluded.digest_hour,
                    digest_sent_on = excluded.digest_sent_on, updated_at = excluded.updated_at
                """, arguments: [householdId, kind!.rawValue, url, kind == .ntfy ? topic : "", storedToken, hour, sentOn, Timestamp.string(from: now)])
            try db.execute(sql: "UPDATE push_message SET next_attempt_at = ? WHERE household_id = ? AND state = 'pending'",
                           arguments: [Timestamp.string(from: now), householdId])
        }
    }

    /// No more push messages; what waited in the outbox is dropped.
    public func remove(householdId: Int64) throws {
        try database.writer.write { db in
            try db.execute(sql: "DELETE FROM push_channel WHERE household_id = ?", arguments: [householdId])
            try db.execute(sql: "DELETE FROM push_message WHERE household_id = ? AND state = 'pending'", arguments: [householdId])
        }
    }

    /// Queues a test message for the engine to send now; its id, to follow how it went.
    public func queueTest(householdId: Int64, title: String, body: String) throws -> Int64 {
        try database.writer.write { db in
            guard try Self.channel(db, householdId) != nil else { throw InventoryError.validation(["push": "push_no_channel"]) }
            return try Self.enqueue(db, householdId: householdId, kind: "test", title: title, body: body, items: [], at: clock.now())
        }
    }

    /// Puts a message in the outbox, due at once.
    @discardableResult
    public static func enqueue(_ db: Database, householdId: Int64, kind: String, title: String, body: String, items: [PushItem], at time: Date) throws -> Int64 {
        let json = String(decoding: (try? JSONEncoder().encode(items)) ?? Data("[]".utf8), as: UTF8.self)
        let stamp = Timestamp.string(from: time)
        try db.execute(sql: """
            INSERT INTO push_message (household_id, kind, title, body, items, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            """, arguments: [householdId, kind, title, body, json, stamp, stamp])
        return db.lastInsertedRowID
    }

    public func message(_ id: Int64, householdId: Int64) throws -> PushMessage? {
        try database.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM push_message WHERE id = ? AND household_id = ?", arguments: [id, householdId]).map(PushMessage.init(row:))
        }
    }

    /// Waits (at most `timeout`, checking every 100 ms) until the engine has tried to send message `id`.
    public func awaitAttempt(_ id: Int64, householdId: Int64, timeout: Duration) throws -> PushMessage? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let message = try self.message(id, householdId: householdId)
            guard let message, message.state == .pending, message.attempts == 0, ContinuousClock.now < deadline else { return message }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    public func status(householdId: Int64) throws -> PushStatus {
        try database.writer.read { db in
            var status = PushStatus()
            status.lastSentAt = try String.fetchOne(db, sql: "SELECT MAX(sent_at) FROM push_message WHERE household_id = ? AND state = 'sent'", arguments: [householdId])
            if let row = try Row.fetchOne(db, sql: """
                SELECT last_error, COALESCE(sent_at, next_attempt_at) AS at FROM push_message
                WHERE household_id = ? AND last_error IS NOT NULL ORDER BY id DESC LIMIT 1
                """, arguments: [householdId]) {
                status.lastError = row["last_error"]
                status.lastErrorAt = row["at"]
            }
            if let row = try Row.fetchOne(db, sql: """
                SELECT COUNT(*) AS waiting, MIN(next_attempt_at) AS next FROM push_message
                WHERE household_id = ? AND state = 'pending' AND attempts > 0
                """, arguments: [householdId]) {
                status.waiting = row["waiting"]
                status.nextRetryAt = row["next"]
            }
            // A failed test is reported by the test itself, not counted as a lost message.
            status.failed = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM push_message WHERE household_id = ? AND state = 'failed' AND kind != 'test'
                """, arguments: [householdId]) ?? 0
            return status
        }
    }

    // MARK: - Checks and times

    /// An absolute http(s) address with a host, no credentials, no fragment.
    public static func isWebAddress(_ text: String) -> Bool {
        guard text.utf8.count <= 500, text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }),
            let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
            components.user == nil, components.password == nil, components.fragment == nil
        else { return false }
        return true
    }

    /// ntfy topics: letters, digits, "-" and "_", at most 64.
    public static func isTopic(_ text: String) -> Bool {
        (1...64).contains(text.count) && text.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }
    }

    static func timeZone(_ db: Database, _ householdId: Int64) throws -> TimeZone {
        let name = try String.fetchOne(db, sql: "SELECT time_zone FROM household WHERE id = ?", arguments: [householdId])
        return name.flatMap(TimeZone.init(identifier:)) ?? .gmt
    }

    /// `hour`:00 on `day` in `zone` (the next hour that exists when a DST change skips it).
    public static func digestInstant(day: CalendarDay, hour: Int, in zone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: hour))
    }
}
