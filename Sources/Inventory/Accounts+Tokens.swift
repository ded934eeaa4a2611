import Foundation
import GRDB
import Tagged

/// What a personal access token may do, on top of what its member's role allows.
public enum TokenScope: String, Sendable, CaseIterable, Codable {
    /// Reads only.
    case read
    /// Reads, and changes items on shopping lists.
    case shopping
    /// Reads, and changes items on stock lists.
    case stock
    /// Reads, and changes items on both kinds of list.
    case all

    /// Whether the scope lets a token change an item on a list of `kind`.
    public func allowsWrites(on kind: FolderKind) -> Bool {
        switch self {
        case .read: false
        case .shopping: kind == .shopping
        case .stock: kind == .stock
        case .all: true
        }
    }
}

/// A member's personal access token as the account page lists it (its secret is shown once, when made).
public struct AccessToken: Sendable, Equatable, Identifiable {
    public typealias ID = Tagged<AccessToken, Int64>

    public let id: ID
    public let name: String
    public let scope: TokenScope
    public let createdAt: Timestamp
    public let lastUsedAt: Timestamp?
    public let lastUsedAddress: String?
}

/// Who is behind an API request's token: the member it acts as, their household, and the token's scope.
public struct TokenHolder: Sendable, Equatable {
    public let tokenId: AccessToken.ID
    public let scope: TokenScope
    public let memberId: Member.ID
    public let memberName: String
    public let role: Role
    public let language: String?
    public let household: HouseholdScope
    public let householdName: String
    public let timeZone: String
}

/// What a presented bearer token turned out to be.
public enum TokenCheck: Sendable, Equatable {
    case valid(TokenHolder)
    /// Unknown, revoked or malformed (counted against the address).
    case rejected
    /// Too many bad tokens from this address: not looked at until then.
    case throttled(until: Date)
}

extension Accounts {
    /// What a token's secret starts with, so a leaked one is recognisable (secret scanners, logs).
    public static let tokenPrefix = "zk_"
    /// How many tokens one member may hold.
    public static let tokensPerMember = 20
    /// Bad tokens from one address: room for 20, then one more a minute.
    static let tokenAddressRule = ThrottleRule.bucket(capacity: 20, drain: 60)
    /// How stale a token's last use may get before a request writes it again.
    static let tokenUseResolution: TimeInterval = 60

    /// A new token for the member: its secret, to show once (only its hash is kept), and the token.
    public func createToken(name: String, scope: String, memberId: Member.ID) throws -> (secret: String, token: AccessToken) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        var problems: [String: FieldProblem] = [:]
        if trimmed.isEmpty { problems["name"] = .tokenNameRequired } else if trimmed.count > 100 { problems["name"] = .tokenNameTooLong }
        let scope = TokenScope(rawValue: scope)
        if scope == nil { problems["scope"] = .tokenScopeInvalid }
        guard problems.isEmpty, let scope else { throw InventoryError.validation(problems) }
        let secret = Self.tokenPrefix + Crypto.token()
        let time = stamp()
        let id = try database.writer.write { db -> AccessToken.ID in
            let held = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM api_token WHERE member_id = ?", arguments: [memberId]) ?? 0
            guard held < Self.tokensPerMember else { throw InventoryError.validation(["name": .tokenLimitReached]) }
            try db.execute(
                sql: "INSERT INTO api_token (member_id, name, scope, token_hash, created_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [memberId, trimmed, scope.rawValue, Self.tokenHash(secret), time])
            return AccessToken.ID(rawValue: db.lastInsertedRowID)
        }
        return (secret, AccessToken(id: id, name: trimmed, scope: scope, createdAt: time, lastUsedAt: nil, lastUsedAddress: nil))
    }

    /// A new token for the member whose login this is (the operator's `zaiko user token`); not
    /// found when no member has it.
    public func createToken(name: String, scope: String, login: String) throws -> String {
        let memberId = try database.writer.read { db in
            try Member.ID.fetchOne(db, sql: "SELECT id FROM member WHERE login = ? COLLATE NOCASE", arguments: [login])
        }
        guard let memberId else { throw InventoryError.notFound }
        return try createToken(name: name, scope: scope, memberId: memberId).secret
    }

    /// The member's tokens, newest first.
    public func tokens(of memberId: Member.ID) throws -> [AccessToken] {
        try database.writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT id, name, scope, created_at, last_used_at, last_used_address FROM api_token WHERE member_id = ? ORDER BY id DESC",
                arguments: [memberId]
            ).map { row in
                AccessToken(
                    id: row["id"], name: row["name"], scope: TokenScope(rawValue: row["scope"]) ?? .read, createdAt: try row.decode(forColumn: "created_at"),
                    lastUsedAt: (row["last_used_at"] as String?).flatMap(Timestamp.init), lastUsedAddress: row["last_used_address"])
            }
        }
    }

    /// Revokes one of the member's tokens: the next request with it is refused. Another member's
    /// token is not found.
    public func revokeToken(_ id: AccessToken.ID, memberId: Member.ID) throws {
        try database.writer.write { db in
            try db.execute(sql: "DELETE FROM api_token WHERE id = ? AND member_id = ?", arguments: [id, memberId])
            guard db.changesCount == 1 else { throw InventoryError.notFound }
        }
    }

    /// The holder of a bearer token presented from `peer`. A bad token counts against the address
    /// (its /64 for IPv6), as a wrong password does; a good one is never held back.
    public func checkToken(_ secret: String, peer: String) throws -> TokenCheck {
        let current = now
        if secret.hasPrefix(Self.tokenPrefix), secret.utf8.count <= 100,
            let row = try database.writer.read({ db in
                try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT t.id AS token_id, t.scope, t.last_used_at, t.last_used_address,
                                   m.id AS member_id, m.name AS member_name, m.role, m.language,
                                   h.id AS household_id, h.name AS household_name, h.time_zone
                            FROM api_token t JOIN member m ON m.id = t.member_id JOIN household h ON h.id = m.household_id
                            WHERE t.token_hash = ?
                            """), arguments: [Self.tokenHash(secret)])
            }),
            let scope = TokenScope(rawValue: row["scope"]), let role = Role(rawValue: row["role"])
        {
            let tokenId: AccessToken.ID = row["token_id"]
            let lastUsed = (row["last_used_at"] as String?).flatMap(Timestamp.init)?.date
            let address = String(peer.prefix(100))
            if lastUsed.map({ current.timeIntervalSince($0) > Self.tokenUseResolution }) ?? true || row["last_used_address"] != address {
                try database.writer.write { db in
                    try db.execute(
                        sql: "UPDATE api_token SET last_used_at = ?, last_used_address = ? WHERE id = ?",
                        arguments: [Timestamp(current), address, tokenId])
                }
            }
            return .valid(
                TokenHolder(
                    tokenId: tokenId, scope: scope, memberId: row["member_id"], memberName: row["member_name"], role: role,
                    language: row["language"], household: HouseholdScope(row["household_id"]), householdName: row["household_name"],
                    timeZone: row["time_zone"]))
        }
        let keys = [ThrottleKey(key: "token:\(PeerAddress.throttleKey(peer))", rule: Self.tokenAddressRule)]
        switch try admit(keys) {
        case .locked(let until): return .throttled(until: until)
        case .admitted(let lockIfFailed): return lockIfFailed.map { .throttled(until: $0) } ?? .rejected
        }
    }

    static func tokenHash(_ secret: String) -> Data { Data(Crypto.sha256(Array(secret.utf8))) }
}
