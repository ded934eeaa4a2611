import Foundation
import GRDB

/// What the API answered a write that carried an `Idempotency-Key`, kept to answer it again.
public struct StoredAnswer: Sendable, Equatable {
    public let status: Int
    public let contentType: String?
    public let etag: String?
    public let body: [UInt8]

    public init(status: Int, contentType: String?, etag: String?, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.etag = etag
        self.body = body
    }
}

/// The API's writes sent with an `Idempotency-Key` (table `api_idempotency`), per token: the first
/// request with a key claims it and its answer is kept for a day; the same request again gets
/// that answer without being done twice; another request with the key is refused.
public struct IdempotentRequests: Sendable {
    let database: AppDatabase
    let clock: WallClock

    /// How long an answer is kept.
    public static let lifetime: TimeInterval = 86400
    /// A claim with no answer after this long was left by a request that never finished (the
    /// server stopped): the key may be claimed again.
    public static let abandonedAfter: TimeInterval = 60

    public init(database: AppDatabase, clock: WallClock = .system) {
        self.database = database
        self.clock = clock
    }

    public enum Claim: Sendable, Equatable {
        /// First use of the key: do the request, then `keep` its answer (or `release` the key).
        case claimed
        /// Answered before: send this again.
        case answered(StoredAnswer)
        /// The key came with another request (method, path, query or body).
        case usedForAnother
        /// The first request with the key has not finished.
        case running
        /// The first request's write was saved, but the server stopped before its answer was kept:
        /// it is not done again, and its answer cannot be given.
        case doneWithoutAnswer
    }

    /// The claimed key of the request being answered, bound by the API around its operation: each
    /// named write (`AppDatabase.write(by:at:)`) marks it done in its own transaction.
    public struct Key: Sendable, Equatable {
        public let token: AccessToken.ID
        public let key: String

        public init(token: AccessToken.ID, key: String) {
            self.token = token
            self.key = key
        }

        @TaskLocal public static var current: Key?
    }

    /// Marks the current request's key done, inside the write's transaction: the write and the
    /// mark are saved together or not at all.
    static func markApplied(_ db: Database, at time: Timestamp) throws {
        guard let claimed = Key.current else { return }
        try db.cachedStatement(sql: "UPDATE api_idempotency SET applied_at = ? WHERE token_id = ? AND key = ? AND applied_at IS NULL")
            .execute(arguments: [time, claimed.token, claimed.key])
    }

    public func claim(token: AccessToken.ID, key: String, fingerprint: [UInt8]) throws -> Claim {
        let now = clock.now()
        return try database.writer.write { db in
            try db.execute(sql: "DELETE FROM api_idempotency WHERE created_at < ?", arguments: [Timestamp(now.addingTimeInterval(-Self.lifetime))])
            if let row = try Row.fetchOne(
                db, sql: "SELECT fingerprint, created_at, status, content_type, etag, body, applied_at FROM api_idempotency WHERE token_id = ? AND key = ?",
                arguments: [token, key])
            {
                guard (row["fingerprint"] as Data) == Data(fingerprint) else { return .usedForAnother }
                if let status = row["status"] as Int? {
                    return .answered(
                        StoredAnswer(status: status, contentType: row["content_type"], etag: row["etag"], body: [UInt8]((row["body"] as Data?) ?? Data())))
                }
                let claimedAt = (row["created_at"] as String?).flatMap(Timestamp.init)?.date ?? .distantPast
                guard now.timeIntervalSince(claimedAt) > Self.abandonedAfter else { return .running }
                // Abandoned: done again only if its write never committed.
                if (row["applied_at"] as String?) != nil { return .doneWithoutAnswer }
                try db.execute(
                    sql: "UPDATE api_idempotency SET created_at = ? WHERE token_id = ? AND key = ?", arguments: [Timestamp(now), token, key])
                return .claimed
            }
            try db.execute(
                sql: "INSERT INTO api_idempotency (token_id, key, fingerprint, created_at) VALUES (?, ?, ?, ?)",
                arguments: [token, key, Data(fingerprint), Timestamp(now)])
            return .claimed
        }
    }

    /// Keeps the answer to a claimed key.
    public func keep(_ answer: StoredAnswer, token: AccessToken.ID, key: String) throws {
        try database.writer.write { db in
            try db.execute(
                sql: "UPDATE api_idempotency SET status = ?, content_type = ?, etag = ?, body = ? WHERE token_id = ? AND key = ?",
                arguments: [answer.status, answer.contentType, answer.etag, Data(answer.body), token, key])
        }
    }

    /// Gives a claimed key up (the request failed on the server's side): it may be sent again,
    /// unless its write was saved before the failure (then it stays claimed, and is done once).
    public func release(token: AccessToken.ID, key: String) throws {
        try database.writer.write { db in
            try db.execute(
                sql: "DELETE FROM api_idempotency WHERE token_id = ? AND key = ? AND status IS NULL AND applied_at IS NULL", arguments: [token, key])
        }
    }
}
