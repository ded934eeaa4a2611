import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// A neighbour with a handful of addresses fills the account-wide sign-in bucket; a browser that
/// signed in to the account before is not held by it (issue 22, item 4).
struct TrustedDeviceTests {
    /// Wrong passwords for "aki" from five addresses until the account's bucket is full.
    func spray(_ fixture: Fixture) throws {
        for round in 0..<8 {
            for address in 1...5 {
                _ = try fixture.accounts.logIn(login: "aki", password: "guess \(round)", peer: "198.51.100.\(address)", userAgent: "", remember: false)
            }
        }
    }

    /// The device token a successful sign-in from `peer` gives the browser.
    func device(_ fixture: Fixture, login: String = "aki", peer: String) throws -> String {
        guard
            case .signedIn(_, _, let device) = try fixture.accounts.logIn(login: login, password: Fixture.password, peer: peer, userAgent: "", remember: false)
        else {
            Issue.record("\(login) could not sign in from \(peer)")
            return ""
        }
        return device
    }

    @Test func fiveAddressesFillTheAccountBucketForEveryNewBrowser() throws {
        let fixture = try Fixture()
        try spray(fixture)
        guard case .throttled = try fixture.accounts.logIn(login: "aki", password: Fixture.password, peer: "192.168.1.20", userAgent: "", remember: false)
        else {
            Issue.record("a browser never seen before was not held by the full account bucket")
            return
        }
    }

    @Test func aBrowserThatSignedInBeforeStillSignsIn() throws {
        let fixture = try Fixture()
        let laptop = try device(fixture, peer: "192.168.1.20")
        #expect(!laptop.isEmpty)
        try spray(fixture)
        guard
            case .signedIn(_, _, let again) = try fixture.accounts.logIn(
                login: "aki", password: Fixture.password, peer: "192.168.1.20", userAgent: "", remember: false, device: laptop)
        else {
            Issue.record("the owner's own browser was locked out by the neighbour's spray")
            return
        }
        #expect(again == laptop, "the browser keeps its token")
        // From another address of the home (a phone that moved to mobile data) the same browser works too.
        guard
            case .signedIn = try fixture.accounts.logIn(
                login: "aki", password: Fixture.password, peer: "203.0.113.9", userAgent: "", remember: false, device: laptop)
        else {
            Issue.record("the trusted browser was held on another address")
            return
        }
    }

    @Test func aForgedOrAnotherAccountsDeviceCookieDoesNotExempt() throws {
        let fixture = try Fixture()
        let invitation = try fixture.accounts.createHousehold(name: "Next door", language: "en", folderNames: [:])
        _ = try fixture.accounts.acceptInvitation(token: invitation, name: "Ken", login: "ken", password: Fixture.password, userAgent: "")
        let kensBrowser = try device(fixture, login: "ken", peer: "198.51.100.1")
        try spray(fixture)
        for forged in [kensBrowser, Crypto.token(), "", String(repeating: "x", count: 500)] {
            guard
                case .throttled = try fixture.accounts.logIn(
                    login: "aki", password: Fixture.password, peer: "192.168.1.20", userAgent: "", remember: false, device: forged)
            else {
                Issue.record("a device cookie not trusted for aki let a sign-in past the full bucket")
                continue
            }
        }
    }

    @Test func theTrustedBrowserIsStillHeldByThePerAddressLimit() throws {
        let fixture = try Fixture()
        let laptop = try device(fixture, peer: "192.168.1.20")
        // A thief of the browser guessing from one address: locked like anyone else there.
        var throttled = false
        for _ in 0..<10 {
            if case .throttled = try fixture.accounts.logIn(
                login: "aki", password: "guess", peer: "203.0.113.50", userAgent: "", remember: false, device: laptop)
            {
                throttled = true
            }
        }
        #expect(throttled, "the device cookie lifted the per-address lock")
        guard
            case .throttled = try fixture.accounts.logIn(
                login: "aki", password: Fixture.password, peer: "203.0.113.50", userAgent: "", remember: false, device: laptop)
        else {
            Issue.record("the per-address lock did not hold the trusted browser")
            return
        }
    }

    @Test func onlyAHashOfTheTokenIsStoredAndTheCountIsBounded() throws {
        let fixture = try Fixture()
        var tokens: [String] = []
        for _ in 0..<(Accounts.trustedDevicesPerMember + 5) {
            tokens.append(try device(fixture, peer: "192.168.1.20"))
            fixture.clock.advance(1)
        }
        let stored = try fixture.database.writer.read { db in try Data.fetchAll(db, sql: "SELECT token_hash FROM trusted_device") }
        #expect(stored.count == Accounts.trustedDevicesPerMember)
        #expect(!stored.contains { $0 == Data(tokens.last!.utf8) })
        #expect(stored.contains(Accounts.deviceHash(tokens.last!)))
    }
}
