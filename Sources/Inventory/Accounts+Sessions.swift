import Foundation
import GRDB
import Synchronization
import Tagged

/// The result of a login attempt. Never says whether the login exists.
public enum LoginOutcome: Sendable, Equatable {
    /// The new session's token, for the cookie, and the browser's device token (trusted for this
    /// member from now on, see `Accounts+Devices`), for the device cookie.
    case signedIn(token: String, remember: Bool, device: String)
    case rejected
    /// Too many failures: try again after this time (no password was checked).
    case throttled(until: Date)
}

extension Accounts {
    /// Checks a login, throttled per (login, address), per login and per address; a new session on success.
    /// `device` is the browser's device cookie: a browser that signed in to this account before is
    /// exempt from the per-login bucket (never from the per-address limits).
    public func logIn(
        login: String, password: String, peer: String, userAgent: String, remember: Bool, device: String? = nil
    ) throws -> LoginOutcome {
        // Logins match as SQLite's NOCASE does (ASCII case only), so look up what was typed as it is.
        let typed = login.trimmingCharacters(in: .whitespacesAndNewlines)
        let current = now
        let (member, trusted) =
            typed.count > 64
            ? (nil, false)
            : try database.writer.read { db -> (Member?, Bool) in
                let member = try Member.filter(sql: "login = ? COLLATE NOCASE", arguments: [typed]).fetchOne(db)
                guard let id = member?.id else { return (member, false) }
                return (member, try Self.isTrustedDevice(db, token: device, memberId: id, now: current))
            }
        let keys = Self.throttleKeys(login: typed, peer: peer, trustedDevice: trusted)
        // Decided and counted before the hash, in one transaction: a lock holds for concurrent attempts too.
        let lockIfFailed: Date?
        switch try admit(keys) {
        case .locked(let until): return .throttled(until: until)
        case .admitted(let lock): lockIfFailed = lock
        }

        // An unknown login costs the same hash as a known one, so timing tells nothing.
        let valid =
            password.utf8.count <= PasswordPolicy.maximumBytes
            && hasher.verify(password, against: member?.passwordHash ?? Self.dummyHash(hasher))
        guard let member, valid else {
            return lockIfFailed.map { .throttled(until: $0) } ?? .rejected
        }
        let rehashed = hasher.needsRehash(member.passwordHash) ? try hasher.hash(password) : nil
        let (token, deviceToken) = try database.writer.write { db in
            try Throttle.forgive(db, keys)
            if let rehashed {
                try db.execute(sql: "UPDATE member SET password_hash = ? WHERE id = ?", arguments: [rehashed, member.id])
            }
            return (
                try createSession(db, memberId: member.id, remember: remember, userAgent: userAgent),
                try Self.trustDevice(db, presented: device, memberId: member.id, now: current)
            )
        }
        return .signedIn(token: token, remember: remember, device: deviceToken)
    }

    /// A hash of nothing anyone knows, made once with the current parameters.
    static func dummyHash(_ hasher: any PasswordHashing) -> String {
        dummyHashes.withLock { cache in
            let key = String(describing: hasher)
            if let hash = cache[key] { return hash }
            let hash = (try? hasher.hash(Crypto.token())) ?? ""
            cache[key] = hash
            return hash
        }
    }
    private static let dummyHashes = Mutex<[String: String]>([:])

    /// A new session: a 32-byte random token for the cookie, only its hash stored.
    func createSession(_ db: Database, memberId: Member.ID, remember: Bool, userAgent: String) throws -> String {
        // Expired sessions are gone from the device list and the table.
        try db.execute(sql: "DELETE FROM session WHERE member_id = ? AND expires_at <= ?", arguments: [memberId, stamp()])
        let token = Crypto.token()
        let lifetime = remember ? Self.rememberedLifetime : Self.browserSessionLifetime
        try db.execute(
            sql: """
                INSERT INTO session (member_id, token_hash, csrf_token, user_agent, created_at, last_seen_at, expires_at, remember)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                memberId, Data(Crypto.sha256(Array(token.utf8))), Crypto.token(), String(userAgent.prefix(300)),
                stamp(), stamp(), stamp(lifetime), remember,
            ])
        return token
    }

    /// The member behind a session token, or nil when it is unknown, expired or idle too long.
    public func session(token: String) throws -> SignedIn? {
        guard !token.isEmpty, token.utf8.count <= 100 else { return nil }
        let tokenHash = Data(Crypto.sha256(Array(token.utf8)))
        let current = now
        guard
            let row = try database.writer.read({ db in
                // Cached: this runs on every page, and compiling it costs more than running it.
                try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT s.id AS session_id, s.csrf_token, s.last_seen_at, s.expires_at, s.remember,
                                   m.id AS member_id, m.name AS member_name, m.login, m.role, m.language,
                                   h.id AS household_id, h.name AS household_name, h.time_zone, h.change_sequence
                            FROM session s JOIN member m ON m.id = s.member_id JOIN household h ON h.id = m.household_id
                            WHERE s.token_hash = ?
                            """), arguments: [tokenHash])
            })
        else { return nil }

        let sessionId: DeviceSession.ID = row["session_id"]
        let idleLimit = (row["remember"] as Bool) ? Self.rememberedIdleLimit : Self.browserSessionIdleLimit
        // A session whose times cannot be read is ended like an expired one.
        guard let expires = (row["expires_at"] as String?).flatMap(Timestamp.init)?.date,
            let lastSeen = (row["last_seen_at"] as String?).flatMap(Timestamp.init)?.date,
            expires > current, current.timeIntervalSince(lastSeen) < idleLimit
        else {
            try database.writer.write { db in try db.execute(sql: "DELETE FROM session WHERE id = ?", arguments: [sessionId]) }
            return nil
        }
        if current.timeIntervalSince(lastSeen) > Self.lastSeenResolution {
            try database.writer.write { db in
                try db.execute(sql: "UPDATE session SET last_seen_at = ? WHERE id = ?", arguments: [Timestamp(current), sessionId])
            }
        }
        guard let role = Role(rawValue: row["role"]) else { return nil }
        return SignedIn(
            sessionId: sessionId, memberId: row["member_id"], memberName: row["member_name"], login: row["login"], role: role,
            language: row["language"], household: HouseholdScope(row["household_id"]), householdName: row["household_name"],
            timeZone: row["time_zone"], csrfToken: row["csrf_token"], changeSequence: row["change_sequence"])
    }

    /// Ends the session on the server: its token stops working everywhere.
    public func logOut(sessionId: DeviceSession.ID) throws {
        try database.writer.write { db in try db.execute(sql: "DELETE FROM session WHERE id = ?", arguments: [sessionId]) }
    }

    public func devices(memberId: Member.ID, currentSessionId: DeviceSession.ID) throws -> [DeviceSession] {
        try database.writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, user_agent, created_at, last_seen_at FROM session
                    WHERE member_id = ? AND \(Self.isOpenSQL)
                    ORDER BY last_seen_at DESC
                    """, arguments: [memberId] + isOpenArguments()
            ).map {
                DeviceSession(
                    id: $0["id"], userAgent: $0["user_agent"], createdAt: try $0.decode(forColumn: "created_at"),
                    lastSeenAt: try $0.decode(forColumn: "last_seen_at"),
                    isCurrent: ($0["id"] as DeviceSession.ID) == currentSessionId)
            }
        }
    }

    /// Signs out one of the member's own sessions.
    public func revokeSession(_ sessionId: DeviceSession.ID, memberId: Member.ID) throws {
        try database.writer.write { db in
            try db.execute(sql: "DELETE FROM session WHERE id = ? AND member_id = ?", arguments: [sessionId, memberId])
            guard db.changesCount == 1 else { throw InventoryError.notFound }
        }
    }

    public func revokeOtherSessions(memberId: Member.ID, keeping sessionId: DeviceSession.ID) throws {
        try database.writer.write { db in
            try db.execute(sql: "DELETE FROM session WHERE member_id = ? AND id != ?", arguments: [memberId, sessionId])
        }
    }

    /// Which of `credentials` still hold: sessions not signed out, revoked, expired or idle too
    /// long, tokens not revoked. An open event stream ends with its credential.
    public func held(among credentials: [Credential]) throws -> Set<Credential> {
        guard !credentials.isEmpty else { return [] }
        let sessions = credentials.compactMap { if case .session(let id) = $0 { id.rawValue } else { nil } }
        let tokens = credentials.compactMap { if case .token(let id) = $0 { id.rawValue } else { nil } }
        return try database.writer.read { db in
            var held = Set<Credential>()
            // In slices, within SQLite's limit on bound values.
            for start in stride(from: 0, to: sessions.count, by: 500) {
                let slice = sessions[start..<min(start + 500, sessions.count)]
                let marks = Array(repeating: "?", count: slice.count).joined(separator: ",")
                let ids = try DeviceSession.ID.fetchAll(
                    db, sql: "SELECT id FROM session WHERE id IN (\(marks)) AND \(Self.isOpenSQL)",
                    arguments: StatementArguments(Array(slice)) + isOpenArguments())
                held.formUnion(ids.map(Credential.session))
            }
            for start in stride(from: 0, to: tokens.count, by: 500) {
                let slice = tokens[start..<min(start + 500, tokens.count)]
                let marks = Array(repeating: "?", count: slice.count).joined(separator: ",")
                let ids = try AccessToken.ID.fetchAll(db, sql: "SELECT id FROM api_token WHERE id IN (\(marks))", arguments: StatementArguments(Array(slice)))
                held.formUnion(ids.map(Credential.token))
            }
            return held
        }
    }

    /// A session still in use, with `isOpenArguments()`: `session(token:)` ends any other.
    static let isOpenSQL = "expires_at > ? AND (last_seen_at > ? OR remember = 1 AND last_seen_at > ?)"

    func isOpenArguments() -> StatementArguments {
        [stamp(), stamp(-Self.browserSessionIdleLimit), stamp(-Self.rememberedIdleLimit)]
    }

    /// Calls `notify` after every commit that ended sessions or tokens (sign-out, revocation, a
    /// member removed or their password changed, an expired session found), with their ids, on the
    /// writer's thread: it must only hand them on.
    public func whenCredentialsEnd(_ notify: @escaping @Sendable ([Credential]) -> Void) {
        database.writer.add(transactionObserver: EndedCredentials(notify), extent: .databaseLifetime)
    }
}

/// What a reader is signed in with: a browser's session, or a personal access token (the API).
public enum Credential: Sendable, Hashable {
    case session(DeviceSession.ID)
    case token(AccessToken.ID)
}

/// Collects the sessions and tokens a transaction deletes (directly or by a member's removal) and
/// tells them once it commits.
private final class EndedCredentials: TransactionObserver, @unchecked Sendable {
    // Only touched on the writer's thread, one transaction at a time.
    private var ended: [Credential] = []
    private let notify: @Sendable ([Credential]) -> Void

    init(_ notify: @escaping @Sendable ([Credential]) -> Void) { self.notify = notify }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        if case .delete(let table) = eventKind { return table == "session" || table == "api_token" }
        return false
    }

    func databaseDidChange(with event: DatabaseEvent) {
        ended.append(event.tableName == "session" ? .session(DeviceSession.ID(rawValue: event.rowID)) : .token(AccessToken.ID(rawValue: event.rowID)))
    }

    func databaseDidCommit(_ db: Database) {
        let sessions = ended
        ended = []
        if !sessions.isEmpty { notify(sessions) }
    }

    func databaseDidRollback(_ db: Database) { ended = [] }
}
