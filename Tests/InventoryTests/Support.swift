import Foundation
import Synchronization
import Testing

@testable import Inventory

/// argon2id with the cheapest parameters, counting every hash it computes.
final class CountingHasher: PasswordHashing {
    let inner: Argon2id
    let hashes = Mutex(0)
    let verifications = Mutex(0)
    /// Extra seconds per check, standing in for the real cost so concurrent attempts overlap.
    let delay: TimeInterval

    init(opsLimit: UInt64 = 1, memLimit: Int = 8192, delay: TimeInterval = 0) {
        inner = Argon2id(opsLimit: opsLimit, memLimit: memLimit)
        self.delay = delay
    }

    func hash(_ password: String) throws -> String {
        hashes.withLock { $0 += 1 }
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        return try inner.hash(password)
    }

    func verify(_ password: String, against hash: String) -> Bool {
        verifications.withLock { $0 += 1 }
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        return inner.verify(password, against: hash)
    }

    func needsRehash(_ hash: String) -> Bool { inner.needsRehash(hash) }

    var computed: Int { hashes.withLock { $0 } + verifications.withLock { $0 } }
}

/// A household with an owner, set up through the real first-run path.
struct Fixture {
    let database: AppDatabase
    let hasher: CountingHasher
    let clock: ManualClock
    let accounts: Accounts
    let ownerToken: String

    static let password = "correct horse battery"

    init(language: String = "en", hasher: CountingHasher = CountingHasher(), folderNames: [String: String] = [:]) throws {
        database = try AppDatabase.inMemory()
        self.hasher = hasher
        clock = ManualClock()
        accounts = Accounts(database: database, hasher: hasher, clock: clock.wall)
        ownerToken = try accounts.setUp(
            householdName: "Home", ownerName: "Aki", login: "aki", password: Self.password, language: language, userAgent: "test",
            folderNames: folderNames)
    }

    var owner: SignedIn { get throws { try #require(try accounts.session(token: ownerToken)) } }

    /// A member who joined by invitation; returns their session token.
    func join(_ login: String, role: Role, householdId: Int64? = nil) throws -> String {
        let invitation = try accounts.invite(householdId: try householdId ?? owner.householdId, role: role)
        return try accounts.acceptInvitation(token: invitation, name: login.capitalized, login: login, password: Self.password, userAgent: "test")
    }
}
