import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

@Suite("Households, members and sessions")
struct AccountsTests {
    @Test func setUpCreatesTheHouseholdStarterFoldersAndOwner() throws {
        // The names come from the setup page's catalog (Templates/locales), by starter key.
        let names = ["starter_fridge": "冷蔵庫", "starter_freezer": "冷凍庫", "starter_pantry": "パントリー", "starter_supermarket": "スーパー"]
        #expect(Set(names.keys) == Set(Accounts.starterFolders.map(\.key)))
        let fixture = try Fixture(language: "ja", folderNames: names)
        let owner = try fixture.owner
        #expect(owner.role == .owner)
        #expect(owner.householdName == "Home")
        let folders = try Folders(database: fixture.database).overview(in: owner.household)
        #expect(folders.map(\.name) == ["冷蔵庫", "冷凍庫", "パントリー", "スーパー"])
        #expect(folders.map(\.kind) == [.stock, .stock, .stock, .shopping])
        // A second setup is refused: the first household exists.
        #expect(throws: InventoryError.notFound) {
            try fixture.accounts.setUp(householdName: "Other", ownerName: "X", login: "x", password: Fixture.password, language: "en", userAgent: "")
        }
    }

    @Test func aHouseholdCreatedByTheCommandLineTakesTheNamesItIsGivenAndFallsBackForTheRest() throws {
        let fixture = try Fixture()
        let invitation = try fixture.accounts.createHousehold(
            name: "Grandparents", language: "fr", folderNames: ["starter_fridge": "Réfrigérateur", "starter_pantry": "  "])
        let grandma = try fixture.accounts.session(
            token: try fixture.accounts.acceptInvitation(
                token: invitation, name: "Grandma", login: "grandma", password: Fixture.password, userAgent: ""))
        let folders = try Folders(database: fixture.database).overview(in: try #require(grandma).household)
        #expect(folders.map(\.name) == ["Réfrigérateur", "Freezer", "Pantry", "Supermarket"])
    }

    @Test(arguments: [
        ("short", FieldProblem.passwordTooShort), ("password123", .passwordTooCommon), ("Passw0rd", .passwordTooCommon),
        (String(repeating: "あ", count: 400), .passwordTooLong),
    ])
    func refusesWeakPasswords(password: String, message: FieldProblem) {
        #expect(PasswordPolicy.problem(with: password) == message)
    }

    @Test func acceptsAReasonablePassword() {
        #expect(PasswordPolicy.problem(with: "kitchen shelf 42") == nil)
    }

    @Test func productionHashesUseArgon2idWithinTheAdvisedCost() throws {
        let hash = try Argon2id.standard.hash("kitchen shelf 42")
        #expect(hash.hasPrefix("$argon2id$"))
        let parameters = try #require(hash.split(separator: "$").first { $0.hasPrefix("m=") })
        let values = Dictionary(
            uniqueKeysWithValues: parameters.split(separator: ",").map { pair in
                let parts = pair.split(separator: "=")
                return (String(parts[0]), Int(parts[1]) ?? 0)
            })
        #expect((19 * 1024...64 * 1024).contains(values["m"] ?? 0), "memory in KiB: \(values)")
        #expect((2...3).contains(values["t"] ?? 0), "passes: \(values)")
        #expect(Argon2id.standard.verify("kitchen shelf 42", against: hash))
        #expect(!Argon2id.standard.verify("kitchen shelf 43", against: hash))
    }

    @Test func logsInWithTheRightPasswordOnlyAndSaysNothingAboutWhichPartWasWrong() throws {
        let fixture = try Fixture()
        let wrongPassword = try fixture.accounts.logIn(login: "aki", password: "wrong password", peer: "10.0.0.2", userAgent: "", remember: false)
        let unknownLogin = try fixture.accounts.logIn(login: "nobody", password: Fixture.password, peer: "10.0.0.3", userAgent: "", remember: false)
        #expect(wrongPassword == .rejected)
        #expect(unknownLogin == .rejected)
        guard
            case .signedIn(let token, _, _) = try fixture.accounts.logIn(
                login: "AKI", password: Fixture.password, peer: "10.0.0.2", userAgent: "", remember: true)
        else {
            Issue.record("login failed")
            return
        }
        #expect(try fixture.accounts.session(token: token)?.login == "aki")
    }

    @Test func everyLoginGetsANewTokenAndOnlyItsHashIsStored() throws {
        let fixture = try Fixture()
        guard case .signedIn(let first, _, _) = try fixture.accounts.logIn(login: "aki", password: Fixture.password, peer: "p", userAgent: "", remember: false),
            case .signedIn(let second, _, _) = try fixture.accounts.logIn(login: "aki", password: Fixture.password, peer: "p", userAgent: "", remember: false)
        else {
            Issue.record("login failed")
            return
        }
        #expect(first != second)
        #expect(first.count == 43) // 32 random bytes, base64url
        let stored = try fixture.database.writer.read { db in try Data.fetchAll(db, sql: "SELECT token_hash FROM session") }
        #expect(!stored.contains(Data(first.utf8)))
        #expect(stored.contains(Data(Crypto.sha256(Array(first.utf8)))))
        // A token that was never issued is nobody's session.
        #expect(try fixture.accounts.session(token: "planted-by-an-attacker") == nil)
    }

    @Test func logOutKillsTheTokenOnTheServer() throws {
        let fixture = try Fixture()
        let owner = try fixture.owner
        try fixture.accounts.logOut(sessionId: owner.sessionId)
        #expect(try fixture.accounts.session(token: fixture.ownerToken) == nil)
    }

    @Test func sessionsEndAfterTheirLifetimeOrWhenIdle() throws {
        let fixture = try Fixture()
        // Not remembered: two idle hours end it.
        fixture.clock.advance(Accounts.browserSessionIdleLimit - 60)
        #expect(try fixture.accounts.session(token: fixture.ownerToken) != nil)
        fixture.clock.advance(Accounts.browserSessionIdleLimit + 1)
        #expect(try fixture.accounts.session(token: fixture.ownerToken) == nil)

        // Remembered: used every week, it still ends after 30 days.
        guard case .signedIn(let token, _, _) = try fixture.accounts.logIn(login: "aki", password: Fixture.password, peer: "p", userAgent: "", remember: true)
        else {
            Issue.record("login failed")
            return
        }
        for _ in 0..<4 {
            fixture.clock.advance(7 * 86400)
            #expect(try fixture.accounts.session(token: token) != nil)
        }
        fixture.clock.advance(3 * 86400)
        #expect(try fixture.accounts.session(token: token) == nil)
    }

    @Test func aThousandWrongPasswordsCostAHandfulOfHashesAndTheRightOneWorksAfterTheLock() throws {
        let fixture = try Fixture()
        let before = fixture.hasher.computed
        var throttled = 0
        var lastUntil: Date?
        for _ in 0..<1000 {
            let outcome = try fixture.accounts.logIn(login: "aki", password: "guess", peer: "192.168.1.66", userAgent: "", remember: false)
            if case .throttled(let until) = outcome {
                throttled += 1
                lastUntil = until
            }
        }
        let hashes = fixture.hasher.computed - before
        #expect(hashes <= 6, "\(hashes) hashes for 1000 attempts")
        #expect(throttled >= 995)
        // While locked even the right password is not checked.
        #expect(
            try {
                if case .throttled = try fixture.accounts.logIn(login: "aki", password: Fixture.password, peer: "192.168.1.66", userAgent: "", remember: false)
                {
                    return true
                }
                return false
            }())
        let until = try #require(lastUntil)
        fixture.clock.advance(until.timeIntervalSince(fixture.clock.wall.now()) + 1)
        guard case .signedIn = try fixture.accounts.logIn(login: "aki", password: Fixture.password, peer: "192.168.1.66", userAgent: "", remember: false) else {
            Issue.record("the right password did not work after the lock")
            return
        }
    }

    @Test func theLockGrowsWithEveryFailureAfterIt() throws {
        let fixture = try Fixture()
        var locks: [TimeInterval] = []
        for _ in 0..<8 {
            let outcome = try fixture.accounts.logIn(login: "aki", password: "guess", peer: "p", userAgent: "", remember: false)
            if case .throttled(let until) = outcome {
                let length = until.timeIntervalSince(fixture.clock.wall.now())
                locks.append(length)
                fixture.clock.advance(length + 1)
            }
        }
        #expect(locks.count == 4)
        #expect(locks == locks.sorted() && Set(locks).count == locks.count, "\(locks)")
    }

    @Test func oneSlowGuesserDoesNotLockTheOwnerOutFromAnotherAddress() throws {
        let fixture = try Fixture()
        // One wrong guess every 15 minutes, for a day, from address A.
        var throttledAtA = 0
        for _ in 0..<96 {
            if case .throttled = try fixture.accounts.logIn(login: "aki", password: "guess", peer: "203.0.113.7", userAgent: "", remember: false) {
                throttledAtA += 1
            }
            fixture.clock.advance(15 * 60)
        }
        #expect(throttledAtA > 0, "address A was never slowed")
        // Right after A's latest guess (which locks A again), the owner, at home on address B,
        // signs in with the right password.
        guard case .throttled = try fixture.accounts.logIn(login: "aki", password: "guess", peer: "203.0.113.7", userAgent: "", remember: false) else {
            Issue.record("a guess after a day of failures did not lock address A")
            return
        }
        guard case .signedIn = try fixture.accounts.logIn(login: "aki", password: Fixture.password, peer: "192.168.1.20", userAgent: "", remember: false) else {
            Issue.record("the owner is locked out by a slow guesser elsewhere")
            return
        }
        // And A is still held back on this account.
        fixture.clock.advance(1)
        guard case .throttled = try fixture.accounts.logIn(login: "aki", password: Fixture.password, peer: "203.0.113.7", userAgent: "", remember: false) else {
            Issue.record("the guesser's own lock lifted with the owner's sign-in")
            return
        }
    }

    @Test func aSprayFromManyAddressesIsSlowedOnTheAccount() throws {
        let fixture = try Fixture()
        let before = fixture.hasher.computed
        var throttled = 0
        for index in 0..<100 {
            if case .throttled = try fixture.accounts.logIn(
                login: "aki", password: "guess", peer: "10.0.\(index / 250).\(index % 250)", userAgent: "", remember: false)
            {
                throttled += 1
            }
        }
        let hashes = fixture.hasher.computed - before
        #expect(hashes <= 20, "\(hashes) hashes for 100 addresses")
        #expect(throttled >= 80)
        // The account's room comes back with time, a little at a time.
        fixture.clock.advance(5 * 60)
        guard case .signedIn = try fixture.accounts.logIn(login: "aki", password: Fixture.password, peer: "10.9.9.9", userAgent: "", remember: false) else {
            Issue.record("the account stayed locked after the spray stopped")
            return
        }
    }

    @Test(arguments: [0, 5])
    func concurrentAttemptsCannotSlipPastALock(earlierFailures: Int) throws {
        let hasher = CountingHasher(delay: 0.05)
        let fixture = try Fixture(hasher: hasher)
        for _ in 0..<earlierFailures {
            _ = try fixture.accounts.logIn(login: "aki", password: "guess", peer: "198.51.100.4", userAgent: "", remember: false)
        }
        // The lock (if any) has just expired; many worker threads guess at once.
        fixture.clock.advance(31)
        let before = hasher.computed
        let threads = 16
        let accounts = fixture.accounts
        let start = DispatchGroup()
        start.enter()
        let done = DispatchGroup()
        for _ in 0..<threads {
            done.enter()
            Thread {
                start.wait()
                _ = try? accounts.logIn(login: "aki", password: "guess", peer: "198.51.100.4", userAgent: "", remember: false)
                done.leave()
            }.start()
        }
        start.leave()
        done.wait()
        let hashes = hasher.computed - before
        // Five free guesses on a clean key; one after an expired lock (it starts the next lock).
        #expect(hashes <= (earlierFailures == 0 ? 5 : 1), "\(hashes) hashes from \(threads) concurrent attempts")
    }

    @Test func theSetupCodeIsLimitedPerAddressAndOverall() throws {
        let fixture = try Fixture()
        var outcomes: [SetupCodeCheck] = []
        for _ in 0..<12 {
            outcomes.append(try fixture.accounts.checkSetupCode("AAAA-BBBB-CCCC", expected: "WXYZ-2345-6789", peer: "10.0.0.5"))
        }
        #expect(outcomes.prefix(10).allSatisfy { $0 == .wrong })
        #expect(
            outcomes.suffix(2).allSatisfy {
                if case .throttled = $0 { return true }
                return false
            }, "\(outcomes)")
        // While locked the right code is not compared either; after the wait it is.
        guard case .throttled(let seconds) = try fixture.accounts.checkSetupCode("wxyz-2345-6789", expected: "WXYZ-2345-6789", peer: "10.0.0.5") else {
            Issue.record("the right code went through a lock")
            return
        }
        fixture.clock.advance(TimeInterval(seconds))
        #expect(try fixture.accounts.checkSetupCode("wxyz-2345-6789", expected: "WXYZ-2345-6789", peer: "10.0.0.5") == .right)
        // Overall: many addresses together are held back too.
        var overall: [SetupCodeCheck] = []
        for index in 0..<40 {
            overall.append(try fixture.accounts.checkSetupCode("AAAA-BBBB-CCCC", expected: "WXYZ-2345-6789", peer: "172.16.0.\(index)"))
        }
        #expect(overall.filter { $0 == .wrong }.count <= 30)
        #expect(
            overall.contains {
                if case .throttled = $0 { return true }
                return false
            })
    }

    @Test func rehashesOnLoginWhenTheParametersChange() throws {
        let fixture = try Fixture()
        let stronger = Accounts(database: fixture.database, hasher: Argon2id(opsLimit: 2, memLimit: 16384), clock: fixture.clock.wall)
        _ = try stronger.logIn(login: "aki", password: Fixture.password, peer: "p", userAgent: "", remember: false)
        let hash = try fixture.database.writer.read { db in try String.fetchOne(db, sql: "SELECT password_hash FROM member WHERE login = 'aki'") }
        #expect(hash?.contains("m=16,t=2") == true, "\(hash ?? "")")
    }

    @Test func invitationsWorkOnceAndExpireAfterSevenDays() throws {
        let fixture = try Fixture()
        let owner = try fixture.owner
        let token = try fixture.accounts.invite(in: owner.household, role: .viewer)
        let session = try fixture.accounts.acceptInvitation(token: token, name: "Yui", login: "yui", password: Fixture.password, userAgent: "")
        let yui = try #require(try fixture.accounts.session(token: session))
        #expect(yui.role == .viewer)
        #expect(yui.household == owner.household)
        #expect(throws: InventoryError.notFound) {
            try fixture.accounts.acceptInvitation(token: token, name: "Eve", login: "eve", password: Fixture.password, userAgent: "")
        }

        let late = try fixture.accounts.invite(in: owner.household, role: .member)
        fixture.clock.advance(Accounts.invitationLifetime - 60)
        #expect(try fixture.accounts.link(token: late, purpose: .invitation) != nil)
        fixture.clock.advance(120)
        #expect(try fixture.accounts.link(token: late, purpose: .invitation) == nil)
    }

    @Test func aTakenLoginIsReportedOnTheLoginField() throws {
        let fixture = try Fixture()
        let token = try fixture.accounts.invite(in: try fixture.owner.household, role: .member)
        #expect(throws: InventoryError.validation(["login": .loginTaken])) {
            try fixture.accounts.acceptInvitation(token: token, name: "Other Aki", login: "AKI", password: Fixture.password, userAgent: "")
        }
        // The invitation was not used up by the failed attempt.
        #expect(try fixture.accounts.link(token: token, purpose: .invitation) != nil)
    }

    @Test func theLastOwnerCanBeNeitherDemotedNorRemoved() throws {
        let fixture = try Fixture()
        let owner = try fixture.owner
        #expect(throws: InventoryError.validation(["role": .lastOwner])) {
            try fixture.accounts.changeRole(memberId: owner.memberId, to: "member", in: owner.household)
        }
        #expect(throws: InventoryError.validation(["role": .lastOwner])) {
            try fixture.accounts.removeMember(memberId: owner.memberId, in: owner.household)
        }
        let second = try #require(try fixture.accounts.session(token: try fixture.join("ken", role: .owner)))
        try fixture.accounts.changeRole(memberId: owner.memberId, to: "member", in: owner.household)
        #expect(try fixture.accounts.session(token: fixture.ownerToken)?.role == .member)
        #expect(throws: InventoryError.validation(["role": .lastOwner])) {
            try fixture.accounts.removeMember(memberId: second.memberId, in: owner.household)
        }
    }

    @Test func removingAMemberEndsTheirSessionsAtOnce() throws {
        let fixture = try Fixture()
        let token = try fixture.join("ken", role: .member)
        let ken = try #require(try fixture.accounts.session(token: token))
        try fixture.accounts.removeMember(memberId: ken.memberId, in: ken.household)
        #expect(try fixture.accounts.session(token: token) == nil)
    }

    @Test func membersOfAnotherHouseholdAreNotFound() throws {
        let fixture = try Fixture()
        let owner = try fixture.owner
        let grandma = try fixture.otherHousehold()
        #expect(grandma.role == .owner)
        #expect(grandma.household != owner.household)
        #expect(throws: InventoryError.notFound) {
            try fixture.accounts.changeRole(memberId: owner.memberId, to: "viewer", in: grandma.household)
        }
        #expect(throws: InventoryError.notFound) {
            try fixture.accounts.removeMember(memberId: owner.memberId, in: grandma.household)
        }
        #expect(try fixture.accounts.members(in: grandma.household).map(\.login) == ["grandma"])
    }

    @Test func changingThePasswordSignsOutTheOtherSessions() throws {
        let fixture = try Fixture()
        guard case .signedIn(let phone, _, _) = try fixture.accounts.logIn(login: "aki", password: Fixture.password, peer: "p", userAgent: "", remember: false)
        else {
            Issue.record("login failed")
            return
        }
        let owner = try fixture.owner
        #expect(throws: InventoryError.validation(["current_password": .currentPasswordWrong])) {
            try fixture.accounts.changePassword(
                memberId: owner.memberId, current: "nope", new: "a new kitchen phrase", keepingSession: owner.sessionId, peer: "p")
        }
        let feeds = CalendarFeeds(database: fixture.database, clock: fixture.clock.wall)
        let feed = try feeds.create(memberId: owner.memberId)
        try fixture.accounts.changePassword(
            memberId: owner.memberId, current: Fixture.password, new: "a new kitchen phrase", keepingSession: owner.sessionId, peer: "p")
        #expect(try fixture.accounts.session(token: phone) == nil)
        // The calendar feed was a way in too: it ends with the old password.
        #expect(try feeds.feed(token: feed) == nil)
        #expect(try fixture.accounts.session(token: fixture.ownerToken) != nil)
    }

    @Test func aResetLinkSetsANewPasswordOnceAndEndsEverySession() throws {
        let fixture = try Fixture()
        let feeds = CalendarFeeds(database: fixture.database, clock: fixture.clock.wall)
        let feed = try feeds.create(memberId: try fixture.owner.memberId)
        let token = try fixture.accounts.createPasswordReset(login: "aki")
        try fixture.accounts.resetPassword(token: token, password: "a brand new phrase")
        #expect(try fixture.accounts.session(token: fixture.ownerToken) == nil)
        #expect(try feeds.feed(token: feed) == nil)
        #expect(throws: InventoryError.notFound) { try fixture.accounts.resetPassword(token: token, password: "another new phrase") }
        guard case .signedIn = try fixture.accounts.logIn(login: "aki", password: "a brand new phrase", peer: "p", userAgent: "", remember: false) else {
            Issue.record("new password refused")
            return
        }
    }

    @Test func loginsWithNonASCIILettersSignIn() throws {
        let fixture = try Fixture()
        let token = try fixture.accounts.invite(in: try fixture.owner.household, role: .member)
        _ = try fixture.accounts.acceptInvitation(token: token, name: "Émile", login: "Émile", password: Fixture.password, userAgent: "")
        guard case .signedIn = try fixture.accounts.logIn(login: "Émile", password: Fixture.password, peer: "p", userAgent: "", remember: false) else {
            Issue.record("Émile cannot sign in")
            return
        }
        guard
            case .signedIn = try fixture.accounts.logIn(
                login: "ÉMILE".replacingOccurrences(of: "MILE", with: "mile"), password: Fixture.password, peer: "p", userAgent: "", remember: false)
        else {
            Issue.record("ASCII case of Émile matters")
            return
        }
    }

    @Test func guessingTheCurrentPasswordIsThrottledLikeALogin() throws {
        let fixture = try Fixture()
        let owner = try fixture.owner
        var messages: [FieldProblem?] = []
        for _ in 0..<6 {
            do {
                try fixture.accounts.changePassword(
                    memberId: owner.memberId, current: "guess", new: "a new kitchen phrase", keepingSession: owner.sessionId, peer: "p")
            } catch InventoryError.validation(let fields) {
                messages.append(fields["current_password"])
            }
        }
        #expect(messages.prefix(4).allSatisfy { $0 == .currentPasswordWrong })
        #expect(messages.suffix(2).allSatisfy { $0 == .currentPasswordThrottled })
        // And the login from that address is locked too: the guesses count like login failures.
        guard case .throttled = try fixture.accounts.logIn(login: "aki", password: Fixture.password, peer: "p", userAgent: "", remember: false) else {
            Issue.record("login not throttled after guessing on the account page")
            return
        }
    }

    @Test func anIPv6ClientIsThrottledByItsNetwork() {
        #expect(PeerAddress.throttleKey("2001:db8:1:2::1") == PeerAddress.throttleKey("2001:db8:1:2:ffff:1:2:3"))
        #expect(PeerAddress.throttleKey("2001:db8:1:2::1") != PeerAddress.throttleKey("2001:db8:1:3::1"))
        #expect(PeerAddress.throttleKey("192.168.1.20") == "192.168.1.20")
    }

    @Test func aResetLiftsTheLocksOnTheLoginFromEveryAddress() throws {
        let fixture = try Fixture()
        for peer in ["10.0.0.1", "2001:db8:1:2::1"] {
            for _ in 0..<5 { _ = try fixture.accounts.logIn(login: "aki", password: "guess", peer: peer, userAgent: "", remember: false) }
        }
        // Another login's lock from the same address stays.
        for _ in 0..<5 { _ = try fixture.accounts.logIn(login: "nobody", password: "guess", peer: "10.0.0.1", userAgent: "", remember: false) }
        let token = try fixture.accounts.createPasswordReset(login: "aki")
        try fixture.accounts.resetPassword(token: token, password: "a brand new phrase")
        for peer in ["10.0.0.1", "2001:db8:1:2::99"] {
            guard case .signedIn = try fixture.accounts.logIn(login: "aki", password: "a brand new phrase", peer: peer, userAgent: "", remember: false) else {
                Issue.record("still locked from \(peer) after a reset")
                return
            }
        }
        guard case .throttled = try fixture.accounts.logIn(login: "nobody", password: "guess", peer: "10.0.0.1", userAgent: "", remember: false) else {
            Issue.record("a reset lifted another login's lock")
            return
        }
    }

    @Test func aResetEndsTheOtherResetLinks() throws {
        let fixture = try Fixture()
        let first = try fixture.accounts.createPasswordReset(login: "aki")
        let second = try fixture.accounts.createPasswordReset(login: "aki")
        try fixture.accounts.resetPassword(token: second, password: "a brand new phrase")
        #expect(try fixture.accounts.link(token: first, purpose: .passwordReset) == nil)
    }

    @Test func theDeviceListLeavesOutSessionsThatEnded() throws {
        let fixture = try Fixture()
        let owner = try fixture.owner
        fixture.clock.advance(Accounts.browserSessionIdleLimit + 1)
        guard
            case .signedIn(let token, _, _) = try fixture.accounts.logIn(
                login: "aki", password: Fixture.password, peer: "p", userAgent: "laptop", remember: true)
        else {
            Issue.record("login failed")
            return
        }
        let current = try #require(try fixture.accounts.session(token: token))
        let devices = try fixture.accounts.devices(memberId: owner.memberId, currentSessionId: current.sessionId)
        #expect(devices.map(\.userAgent) == ["laptop"])
    }
}
