import Foundation
import Inventory
import Testing

/// A household ("Home") with an owner (Aki), set up through the real first-run path, over an
/// in-memory database (or the one given), a manual clock and cheap password hashing. Every test
/// target builds its own fixtures on this one.
public struct Fixture {
    public let database: AppDatabase
    public let hasher: CountingHasher
    public let clock: ManualClock
    public let accounts: Accounts
    public let items: Items
    public let ownerToken: String
    public let household: HouseholdScope
    /// The owner's member id (Aki).
    public let ownerId: Member.ID

    public static let password = "correct horse battery"

    public init(
        language: String = "en", database: AppDatabase? = nil, clock: ManualClock = ManualClock(), userAgent: String = "test",
        hasher: CountingHasher = CountingHasher(), folderNames: [String: String] = [:]
    ) throws {
        self.database = try database ?? AppDatabase.inMemory()
        self.clock = clock
        self.hasher = hasher
        accounts = Accounts(database: self.database, hasher: hasher, clock: clock.wall)
        items = Items(database: self.database, clock: clock.wall)
        ownerToken = try accounts.setUp(
            householdName: "Home", ownerName: "Aki", login: "aki", password: Self.password, language: language, userAgent: userAgent,
            folderNames: folderNames)
        let owner = try #require(try accounts.session(token: ownerToken))
        household = owner.household
        ownerId = owner.memberId
    }

    public var owner: SignedIn { get throws { try #require(try accounts.session(token: ownerToken)) } }

    /// A member who joined by invitation; returns their session token.
    public func join(_ login: String, role: Role, in household: HouseholdScope? = nil, userAgent: String = "test") throws -> String {
        let invitation = try accounts.invite(in: household ?? self.household, role: role)
        return try accounts.acceptInvitation(token: invitation, name: login.capitalized, login: login, password: Self.password, userAgent: userAgent)
    }

    /// A second household ("Grandparents", with its starter folders) and its owner, signed in.
    public func otherHousehold() throws -> SignedIn {
        let invitation = try accounts.createHousehold(name: "Grandparents")
        let token = try accounts.acceptInvitation(token: invitation, name: "Grandma", login: "grandma", password: Self.password, userAgent: "")
        return try #require(try accounts.session(token: token))
    }

    /// The household's first folder of a kind (the starter Fridge, the starter shopping list).
    public func firstFolder(_ kind: FolderKind, in household: HouseholdScope? = nil) throws -> Folder.ID {
        try #require(try items.folders(in: household ?? self.household, kind: kind).first?.id)
    }
}

/// The instant an ISO 8601 UTC text names ("2026-11-23T09:00:00Z").
public func utc(_ text: String) -> Date { Timestamp(text)!.date }

/// A suite whose tests act as its fixture's owner, in the owner's household: `household`,
/// `member` and `items` named once here rather than copied in each suite's set-up.
public protocol ActingAsOwner {
    var fixture: Fixture { get }
}

extension ActingAsOwner {
    public var household: HouseholdScope { fixture.household }
    public var member: Member.ID { fixture.ownerId }
    public var items: Items { fixture.items }
}
