import Foundation
import GRDB

/// How failures counted on one throttle key slow the attempts after them.
enum ThrottleRule: Sendable {
    /// `free` failures, then a lock of `firstLock` that doubles with every further failure up to
    /// `longestLock`; failures are forgotten only after a quiet `window`.
    case growingLock(free: Int, firstLock: TimeInterval, longestLock: TimeInterval, window: TimeInterval)
    /// Room for `capacity` attempts, one more every `drain`: guessing slower than that never fills
    /// it, a burst from many places does. Rows store the level in `failures` and the time the
    /// level was last drained to in `last_failure_at`.
    case bucket(capacity: Int, drain: TimeInterval)
}

/// One counter in `login_throttle` and the rule it follows.
struct ThrottleKey: Sendable {
    let key: String
    let rule: ThrottleRule
}

/// Whether an attempt may go ahead, decided and recorded in one write transaction.
enum ThrottleAdmission: Sendable, Equatable {
    /// Counted as a failure already (so concurrent attempts see it); `lockIfFailed` is the end of
    /// the lock this attempt starts if it does fail.
    case admitted(lockIfFailed: Date?)
    /// Not attempted: a key is locked until then.
    case locked(until: Date)
}

enum Throttle {
    /// Checks every key and, when none is locked, counts the attempt on each as a failure before
    /// the caller checks anything: two attempts cannot both pass a lock the first one starts.
    /// Run inside the caller's write transaction.
    static func admit(_ db: Database, _ keys: [ThrottleKey], now: Date) throws -> ThrottleAdmission {
        // Rows nobody has failed on for a day are of no use any more.
        try db.execute(
            sql: "DELETE FROM login_throttle WHERE last_failure_at < ? AND (locked_until IS NULL OR locked_until < ?)",
            arguments: [Timestamp(now.addingTimeInterval(-86400)), Timestamp(now)])
        var writes: [(key: String, failures: Int, since: Date, lockedUntil: Date?)] = []
        var lockedUntil: Date?
        var lockIfFailed: Date?
        for key in keys {
            let row = try Row.fetchOne(db, sql: "SELECT failures, last_failure_at, locked_until FROM login_throttle WHERE key = ?", arguments: [key.key])
            let stored: Int = row?["failures"] ?? 0
            let since = (row?["last_failure_at"] as String?).flatMap(Timestamp.init)?.date
            switch key.rule {
            case .growingLock(let free, let firstLock, let longestLock, let window):
                if let end = (row?["locked_until"] as String?).flatMap(Timestamp.init)?.date, end > now {
                    lockedUntil = max(lockedUntil ?? end, end)
                    continue
                }
                let failures = (since.map { now.timeIntervalSince($0) < window } ?? false) ? stored + 1 : 1
                var end: Date?
                if failures >= free {
                    // firstLock, doubling with every further failure, at most longestLock.
                    let exponent = min(failures - free, 20)
                    end = now.addingTimeInterval(min(firstLock * pow(2, Double(exponent)), longestLock))
                    lockIfFailed = max(lockIfFailed ?? end!, end!)
                }
                writes.append((key.key, failures, now, end))
            case .bucket(let capacity, let drain):
                // Drain whole steps only, moving the reference by exactly those steps, so attempts
                // just under `drain` apart cannot keep the level from ever falling.
                var level = stored
                var reference = since ?? now
                let steps = max(0, Int(now.timeIntervalSince(reference) / drain))
                level = max(0, level - steps)
                reference = level == 0 ? now : reference.addingTimeInterval(Double(steps) * drain)
                if level >= capacity {
                    let end = reference.addingTimeInterval(drain)
                    lockedUntil = max(lockedUntil ?? end, end)
                    continue
                }
                if level + 1 >= capacity {
                    let end = reference.addingTimeInterval(drain)
                    lockIfFailed = max(lockIfFailed ?? end, end)
                }
                writes.append((key.key, level + 1, reference, nil))
            }
        }
        if let lockedUntil { return .locked(until: lockedUntil) }
        for write in writes {
            try db.execute(
                sql: """
                    INSERT INTO login_throttle (key, failures, last_failure_at, locked_until) VALUES (?, ?, ?, ?)
                    ON CONFLICT (key) DO UPDATE SET failures = excluded.failures,
                        last_failure_at = excluded.last_failure_at, locked_until = excluded.locked_until
                    """, arguments: [write.key, write.failures, Timestamp(write.since), write.lockedUntil.map(Timestamp.init)])
        }
        return .admitted(lockIfFailed: lockIfFailed)
    }

    /// The admitted attempt succeeded: its locks lift, and the buckets get the attempt back.
    static func forgive(_ db: Database, _ keys: [ThrottleKey]) throws {
        for key in keys {
            switch key.rule {
            case .growingLock:
                try db.execute(sql: "DELETE FROM login_throttle WHERE key = ?", arguments: [key.key])
            case .bucket:
                try db.execute(sql: "UPDATE login_throttle SET failures = MAX(failures - 1, 0) WHERE key = ?", arguments: [key.key])
            }
        }
    }
}

extension Accounts {
    /// One login from one address: a few guesses, then a lock that grows up to 15 minutes.
    static let pairRule = ThrottleRule.growingLock(free: 5, firstLock: 30, longestLock: 15 * 60, window: 86400)
    /// The whole account, from every address: room for 20 attempts and one more every 5 minutes.
    /// One address is held to 4 an hour by its own lock, so it never fills this and cannot lock
    /// the owner out elsewhere; a spray from many addresses does, and is slowed to 12 an hour.
    static let accountRule = ThrottleRule.bucket(capacity: 20, drain: 5 * 60)
    /// One address, whatever login it tries: the same room, against guessing many logins.
    static let addressRule = ThrottleRule.bucket(capacity: 20, drain: 5 * 60)

    /// The setup code from one address: 10 guesses, then a lock growing up to 15 minutes.
    static let setupAddressRule = ThrottleRule.growingLock(free: 10, firstLock: 30, longestLock: 15 * 60, window: 86400)
    /// The setup code from everywhere: 30 guesses, then one a minute; a bucket, so one slow
    /// guesser cannot keep the operator out.
    static let setupOverallRule = ThrottleRule.bucket(capacity: 30, drain: 60)

    /// Throttle keys of a login attempt: (login, address), the login and the address. The login is
    /// hashed, so any length fits, and ASCII-folded like the lookup; an IPv6 address counts by its
    /// /64, which one household's router hands out whole. A browser that signed in to this login
    /// before (`trustedDevice`, see `Accounts+Devices`) is not held by the login's bucket, which
    /// other addresses can fill; the two per-address keys hold it as any other.
    static func throttleKeys(login: String, peer: String, trustedDevice: Bool = false) -> [ThrottleKey] {
        let account = loginKey(login)
        let address = PeerAddress.throttleKey(peer)
        return [
            ThrottleKey(key: "pair:\(account)|\(address)", rule: pairRule),
            trustedDevice ? nil : ThrottleKey(key: "account:\(account)", rule: accountRule),
            ThrottleKey(key: "address:\(address)", rule: addressRule),
        ].compactMap { $0 }
    }

    static func loginKey(_ login: String) -> String {
        let folded = String(login.unicodeScalars.map { $0.isASCII ? Character(String($0).lowercased()) : Character($0) })
        return Crypto.hex(Crypto.sha256(Array(folded.utf8)))
    }

    /// Lifts every lock on a login, from every address (a password reset by the operator).
    static func clearThrottle(_ db: Database, login: String) throws {
        let account = loginKey(login)
        try db.execute(
            sql: "DELETE FROM login_throttle WHERE key = ? OR substr(key, 1, ?) = ?",
            arguments: ["account:\(account)", "pair:\(account)|".count, "pair:\(account)|"])
    }

    func admit(_ keys: [ThrottleKey]) throws -> ThrottleAdmission {
        let current = now
        return try database.writer.write { db in try Throttle.admit(db, keys, now: current) }
    }
}

/// What a typed setup code was.
public enum SetupCodeCheck: Sendable, Equatable {
    case right
    case wrong
    /// Not a code the server could have printed (the problem says why): not counted as a guess.
    case malformed(FieldProblem)
    /// Too many wrong codes: try again in this many seconds (nothing was compared).
    case throttled(seconds: Int)
}

extension Accounts {
    /// Compares a typed first-run setup code, limited per address and overall like a password.
    public func checkSetupCode(_ typed: String, expected: String, peer: String) throws -> SetupCodeCheck {
        let keys = [
            ThrottleKey(key: "setup:address:\(PeerAddress.throttleKey(peer))", rule: Self.setupAddressRule),
            ThrottleKey(key: "setup:all", rule: Self.setupOverallRule),
        ]
        let code = SetupCode.normalized(typed), printed = SetupCode.normalized(expected)
        if let problem = SetupCode.malformation(of: code, expected: printed) { return .malformed(problem) }
        let current = now
        return try database.writer.write { db in
            switch try Throttle.admit(db, keys, now: current) {
            case .locked(let until):
                return .throttled(seconds: max(1, Int(until.timeIntervalSince(current).rounded(.up))))
            case .admitted:
                guard Crypto.constantTimeEquals(code, printed) else { return .wrong }
                try Throttle.forgive(db, keys)
                return .right
            }
        }
    }
}
