import Foundation
import GRDB

/// An invitation still waiting to be used.
public typealias PendingInvitation = (id: SingleUseLink.ID, role: Role, expiresAt: Timestamp)

extension Accounts {
    func insertLink(_ db: Database, purpose: SingleUseLink.Purpose, householdId: Household.ID, memberId: Member.ID?, role: Role?, lifetime: TimeInterval) throws
        -> String
    {
        let token = Crypto.token()
        try db.execute(
            sql: """
                INSERT INTO single_use_link (purpose, token_hash, household_id, member_id, role, created_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [purpose.rawValue, Data(Crypto.sha256(Array(token.utf8))), householdId, memberId, role?.rawValue, stamp(), stamp(lifetime)])
        return token
    }

    /// An invitation to join the household with `role`, valid for 7 days, usable once.
    public func invite(in scope: HouseholdScope, role: Role) throws -> String {
        try database.writer.write { db in
            try insertLink(db, purpose: .invitation, householdId: scope.householdId, memberId: nil, role: role, lifetime: Self.invitationLifetime)
        }
    }

    /// For the person who runs the server: a link to set a new password for `login`.
    public func createPasswordReset(login: String) throws -> String {
        try database.writer.write { db in
            guard let member = try Member.filter(sql: "login = ? COLLATE NOCASE", arguments: [login]).fetchOne(db) else {
                throw InventoryError.notFound
            }
            return try insertLink(db, purpose: .passwordReset, householdId: member.householdId, memberId: member.id, role: nil, lifetime: Self.resetLifetime)
        }
    }

    /// The link behind a token, if it is unused and not expired.
    public func link(token: String, purpose: SingleUseLink.Purpose) throws -> SingleUseLink? {
        try database.writer.read { db in try validLink(db, token: token, purpose: purpose) }
    }

    func validLink(_ db: Database, token: String, purpose: SingleUseLink.Purpose) throws -> SingleUseLink? {
        guard !token.isEmpty, token.utf8.count <= 100 else { return nil }
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT l.id, l.household_id, l.member_id, l.role, l.expires_at, h.name AS household_name
                    FROM single_use_link l JOIN household h ON h.id = l.household_id
                    WHERE l.token_hash = ? AND l.purpose = ? AND l.used_at IS NULL AND l.expires_at > ?
                    """, arguments: [Data(Crypto.sha256(Array(token.utf8))), purpose.rawValue, stamp()])
        else { return nil }
        return SingleUseLink(
            id: row["id"], purpose: purpose, householdId: row["household_id"], householdName: row["household_name"],
            memberId: row["member_id"], role: (row["role"] as String?).flatMap(Role.init(rawValue:)), expiresAt: try row.decode(forColumn: "expires_at"))
    }

    /// Uses an invitation: a new member of its household, signed in. The link then stops working.
    public func acceptInvitation(token: String, name: String, login: String, password: String, userAgent: String) throws -> String {
        let errors = Self.memberProblems(name: name, login: login, password: password)
        guard errors.isEmpty else { throw InventoryError.validation(errors) }
        guard try link(token: token, purpose: .invitation) != nil else { throw InventoryError.notFound }
        let hash = try hasher.hash(password)
        return try database.writer.write { db in
            // Checked again inside the transaction: two people cannot use one link.
            guard let link = try validLink(db, token: token, purpose: .invitation), let role = link.role else { throw InventoryError.notFound }
            let member = try insertMember(db, householdId: link.householdId, name: name, login: login, hash: hash, role: role, language: nil)
            try db.execute(sql: "UPDATE single_use_link SET used_at = ? WHERE id = ?", arguments: [stamp(), link.id])
            return try createSession(db, memberId: member.id, remember: false, userAgent: userAgent)
        }
    }

    /// Uses a password reset link: a new password, every session and the calendar feed of that member ended.
    public func resetPassword(token: String, password: String) throws {
        if let problem = PasswordPolicy.problem(with: password) { throw InventoryError.validation(["password": problem]) }
        guard try link(token: token, purpose: .passwordReset) != nil else { throw InventoryError.notFound }
        let hash = try hasher.hash(password)
        try database.writer.write { db in
            guard let link = try validLink(db, token: token, purpose: .passwordReset), let memberId = link.memberId else { throw InventoryError.notFound }
            try db.execute(sql: "UPDATE member SET password_hash = ? WHERE id = ?", arguments: [hash, memberId])
            try db.execute(sql: "DELETE FROM session WHERE member_id = ?", arguments: [memberId])
            try db.execute(sql: "DELETE FROM calendar_feed WHERE member_id = ?", arguments: [memberId])
            try db.execute(sql: "UPDATE single_use_link SET used_at = ? WHERE id = ?", arguments: [stamp(), link.id])
            // Other reset links for this member stop working, and the locks on the login lift.
            try db.execute(sql: "DELETE FROM single_use_link WHERE member_id = ? AND purpose = 'password_reset' AND id != ?", arguments: [memberId, link.id])
            if let login = try String.fetchOne(db, sql: "SELECT login FROM member WHERE id = ?", arguments: [memberId]) {
                try Self.clearThrottle(db, login: login)
            }
        }
    }

    /// Invitations of a household still waiting to be used.
    public func pendingInvitations(in scope: HouseholdScope) throws -> [PendingInvitation] {
        try database.writer.read { db in try Self.pendingInvitations(db, scope.householdId, at: stamp()) }
    }

    /// Invitations still waiting to be used at `time` (a `Timestamp` string).
    static func pendingInvitations(_ db: Database, _ householdId: Household.ID, at time: Timestamp) throws -> [PendingInvitation] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT id, role, expires_at FROM single_use_link
                WHERE household_id = ? AND purpose = 'invitation' AND used_at IS NULL AND expires_at > ? ORDER BY expires_at
                """, arguments: [householdId, time]
        ).compactMap { row in
            try Role(rawValue: row["role"]).map { (id: row["id"], role: $0, expiresAt: try row.decode(forColumn: "expires_at")) }
        }
    }

    public func cancelInvitation(id: SingleUseLink.ID, in scope: HouseholdScope) throws {
        try database.writer.write { db in
            try db.execute(sql: "DELETE FROM single_use_link WHERE id = ? AND household_id = ? AND purpose = 'invitation'", arguments: [id, scope.householdId])
            guard db.changesCount == 1 else { throw InventoryError.notFound }
        }
    }
}
