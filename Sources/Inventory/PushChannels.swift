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
    public let householdId: Household.ID
    public let kind: PushKind
    /// The ntfy server ("https://ntfy.example") or the webhook's full address.
    public let url: String
    public let topic: String
    public let accessToken: String?
    /// Local hour of the daily digest (household time zone), or nil for none.
    public let digestHour: Int?
    public let digestSentOn: CalendarDay?

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

    init(row: Row) throws {
        householdId = row["household_id"]
        kind = PushKind(rawValue: row["kind"]) ?? .ntfy
        url = row["url"]
        topic = row["topic"]
        accessToken = row["access_token"]
        digestHour = row["digest_hour"]
        digestSentOn = try row.decode(forColumn: "digest_sent_on")
    }
}

/// What the owner typed into the push channel form.
public struct PushChannelInput: Sendable, Equatable {
    public var kind = "ntfy"
    public var url = ""
    public var topic = ""
    /// Empty keeps the stored token, unless the address changes.
    public var accessToken = ""
    public var clearAccessToken = false
    /// "" for no digest, else 0…23.
    public var digestHour = ""

    public init(kind: String = "ntfy", url: String = "", topic: String = "", accessToken: String = "", clearAccessToken: Bool = false, digestHour: String = "")
    {
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

/// The household's push channel (owners set it). Its messages wait in the `Outbox`.
public struct PushChannels: Sendable {
    let database: AppDatabase
    let clock: WallClock

    public init(database: AppDatabase, clock: WallClock = .system) {
        self.database = database
        self.clock = clock
    }

    public func channel(in scope: HouseholdScope) throws -> PushChannel? {
        try database.writer.read { db in try Self.channel(db, scope.householdId) }
    }

    static func channel(_ db: Database, _ householdId: Household.ID) throws -> PushChannel? {
        try Row.fetchOne(db, sql: "SELECT * FROM push_channel WHERE household_id = ?", arguments: [householdId]).map(PushChannel.init(row:))
    }

    /// Checks and stores the channel. Errors are problems by field (`url`, `topic`, `access_token`,
    /// `digest_hour`, `kind`). Messages waiting for a retry are tried again at once with the new settings.
    public func save(_ input: PushChannelInput, in scope: HouseholdScope) throws {
        var errors: [String: FieldProblem] = [:]
        let kind = PushKind(rawValue: input.kind)
        if kind == nil { errors["kind"] = .pushKindInvalid }
        var url = input.url.trimmingCharacters(in: .whitespacesAndNewlines)
        // "HTTPS://…" is a web address too; it is stored as the lower-case scheme the table requires.
        if let colon = url.firstIndex(of: ":"), url[..<colon].allSatisfy(\.isASCII) { url = url[..<colon].lowercased() + url[colon...] }
        if url.isEmpty {
            errors["url"] = .pushUrlRequired
        } else if !Self.isWebAddress(url) {
            errors["url"] = .pushUrlInvalid
        }
        let topic = input.topic.trimmingCharacters(in: .whitespacesAndNewlines)
        if kind == .ntfy {
            if topic.isEmpty {
                errors["topic"] = .pushTopicRequired
            } else if !Self.isTopic(topic) {
                errors["topic"] = .pushTopicInvalid
            }
        }
        let token = input.accessToken.trimmingCharacters(in: .whitespaces)
        if !token.isEmpty, !(token.utf8.count <= 500 && token.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }) {
            errors["access_token"] = .pushTokenInvalid
        }
        var hour: Int?
        let hourText = input.digestHour.trimmingCharacters(in: .whitespaces)
        if !hourText.isEmpty {
            if let value = Int(hourText), (0...23).contains(value) { hour = value } else { errors["digest_hour"] = .digestHourInvalid }
        }
        if !errors.isEmpty { throw InventoryError.validation(errors) }

        let now = clock.now()
        try database.writer.write { db in
            let existing = try Self.channel(db, scope.householdId)
            // A stored token goes only where it went before: a new address (a co-owner's, say) needs it typed again.
            let sameAddress = existing.map { $0.kind == kind && Self.sameDestination($0.url, url) } ?? false
            let storedToken = input.clearAccessToken ? nil : (token.isEmpty ? (sameAddress ? existing?.accessToken : nil) : token)
            // A digest hour already past today starts tomorrow; an unchanged hour keeps its day.
            var sentOn = existing?.digestHour == hour ? existing?.digestSentOn : nil
            if let hour, sentOn == nil {
                let zone = try Self.timeZone(db, scope.householdId)
                let today = CalendarDay.today(in: zone, now: now)
                if let start = Self.digestInstant(day: today, hour: hour, in: zone), start <= now { sentOn = today }
            }
            try db.execute(
                sql: """
                    INSERT INTO push_channel (household_id, kind, url, topic, access_token, digest_hour, digest_sent_on, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (household_id) DO UPDATE SET kind = excluded.kind, url = excluded.url, topic = excluded.topic,
                        access_token = excluded.access_token, digest_hour = excluded.digest_hour,
                        digest_sent_on = excluded.digest_sent_on, updated_at = excluded.updated_at
                    """,
                arguments: [scope.householdId, kind!.rawValue, url, kind == .ntfy ? topic : "", storedToken, hour, sentOn, Timestamp(now)])
            try Outbox.retryNow(db, householdId: scope.householdId, at: now)
        }
    }

    /// No more push messages; what waited in the outbox is dropped.
    public func remove(in scope: HouseholdScope) throws {
        try database.writer.write { db in
            try db.execute(sql: "DELETE FROM push_channel WHERE household_id = ?", arguments: [scope.householdId])
            try Outbox.dropPending(db, householdId: scope.householdId)
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

    /// Two addresses that reach the same place: scheme, host and port alike (case and default port
    /// aside), and the same path and query (a trailing "/" aside).
    static func sameDestination(_ a: String, _ b: String) -> Bool {
        func key(_ text: String) -> String? {
            guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased() else {
                return nil
            }
            let port = components.port ?? (scheme == "https" ? 443 : 80)
            var path = components.percentEncodedPath
            while path.hasSuffix("/") { path.removeLast() }
            return "\(scheme)://\(host):\(port)\(path)?\(components.percentEncodedQuery ?? "")"
        }
        guard let first = key(a), let second = key(b) else { return false }
        return first == second
    }

    /// ntfy topics: letters, digits, "-" and "_", at most 64.
    public static func isTopic(_ text: String) -> Bool {
        (1...64).contains(text.count) && text.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }
    }

    static func timeZone(_ db: Database, _ householdId: Household.ID) throws -> TimeZone {
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
