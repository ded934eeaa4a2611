import Foundation
import GRDB

/// Browsers that have signed in to an account before.
///
/// A successful sign-in leaves a long-lived device cookie (a random token; only its hash is
/// stored, per member). A later sign-in from a browser that carries a token trusted for that
/// member skips the account-wide bucket (`Accounts.accountRule`), which a spray from many
/// addresses fills for every address alike: a neighbour with five addresses can then no longer
/// keep the owner out of a browser the owner has used. The per-address limits (login and address,
/// and the address alone) still apply to a trusted browser, so the cookie buys a thief of the
/// browser no faster guessing than any one address has. A token trusted for one member does not
/// exempt sign-ins to another.
extension Accounts {
    /// How long a browser stays trusted without signing in again (the cookie lives as long).
    public static let trustedDeviceLifetime: TimeInterval = 400 * 86400
    /// Browsers remembered per member; the least recently used go first.
    static let trustedDevicesPerMember = 20

    static func deviceHash(_ token: String) -> Data { Data(Crypto.sha256(Array(token.utf8))) }

    /// Whether `token` names a browser that signed in to `memberId` before (and not too long ago).
    static func isTrustedDevice(_ db: Database, token: String?, memberId: Member.ID, now: Date) throws -> Bool {
        guard let token, !token.isEmpty, token.utf8.count <= 100 else { return false }
        return try Bool.fetchOne(
            db,
            sql: "SELECT 1 FROM trusted_device WHERE member_id = ? AND token_hash = ? AND last_used_at > ?",
            arguments: [memberId, deviceHash(token), Timestamp(now.addingTimeInterval(-trustedDeviceLifetime))]) ?? false
    }

    /// After a successful sign-in: the browser's token, trusted for `memberId` from now on. A token
    /// the server made before (for this member or another one signing in on the same browser) is
    /// kept; anything else is replaced by a new one, so a token is always one the server made.
    static func trustDevice(_ db: Database, presented: String?, memberId: Member.ID, now: Date) throws -> String {
        let stamp = Timestamp(now)
        var token = Crypto.token()
        if let presented, !presented.isEmpty, presented.utf8.count <= 100,
            try Bool.fetchOne(db, sql: "SELECT 1 FROM trusted_device WHERE token_hash = ?", arguments: [deviceHash(presented)]) == true
        {
            token = presented
        }
        try db.execute(
            sql: """
                INSERT INTO trusted_device (member_id, token_hash, created_at, last_used_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (member_id, token_hash) DO UPDATE SET last_used_at = excluded.last_used_at
                """, arguments: [memberId, deviceHash(token), stamp, stamp])
        // Forgotten: browsers unused past the lifetime, and the least recently used beyond the cap.
        try db.execute(
            sql: """
                DELETE FROM trusted_device WHERE member_id = ? AND (last_used_at <= ? OR token_hash NOT IN (
                    SELECT token_hash FROM trusted_device WHERE member_id = ? ORDER BY last_used_at DESC LIMIT ?))
                """,
            arguments: [memberId, Timestamp(now.addingTimeInterval(-trustedDeviceLifetime)), memberId, trustedDevicesPerMember])
        return token
    }

    /// A browser that just signed in another way (the first-run setup, an accepted invitation):
    /// trusted for the session's member as after a sign-in; returns the token for its cookie.
    public func trustBrowser(ofSession sessionToken: String, presented: String?) throws -> String {
        let current = now
        return try database.writer.write { db in
            guard
                let memberId = try Member.ID.fetchOne(
                    db, sql: "SELECT member_id FROM session WHERE token_hash = ?", arguments: [Data(Crypto.sha256(Array(sessionToken.utf8)))])
            else { throw InventoryError.notFound }
            return try Self.trustDevice(db, presented: presented, memberId: memberId, now: current)
        }
    }
}
