import GRDB

public enum Role: String, Codable, Sendable, CaseIterable {
    case owner, member, viewer

    /// Members and owners change items; viewers only read.
    public var canWrite: Bool { self != .viewer }
}

public struct Member: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public var id: Int64?
    public var householdId: Household.ID
    public var name: String
    public var login: String
    public var passwordHash: String
    public var role: Role
    /// "en", "ja", … or nil to follow the browser.
    public var language: String?
    public var createdAt: Timestamp

    public static let databaseTableName = "member"
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// Who is behind a session cookie: what every page needs to know about its reader.
public struct SignedIn: Sendable, Equatable {
    public let sessionId: Int64
    public let memberId: Int64
    public let memberName: String
    public let login: String
    public let role: Role
    public let language: String?
    /// The session's household: what every store method this reader's pages call is scoped to.
    public let household: HouseholdScope
    public let householdName: String
    public let timeZone: String
    public let csrfToken: String
}

/// One signed-in device of a member.
public struct DeviceSession: Sendable, Equatable {
    public let id: Int64
    public let userAgent: String
    public let createdAt: Timestamp
    public let lastSeenAt: Timestamp
    public let isCurrent: Bool
}

/// What a single-use link (invitation or password reset) leads to.
public struct SingleUseLink: Sendable, Equatable {
    public enum Purpose: String, Sendable { case invitation, passwordReset = "password_reset" }
    public let id: Int64
    public let purpose: Purpose
    public let householdId: Household.ID
    public let householdName: String
    public let memberId: Int64?
    public let role: Role?
    public let expiresAt: Timestamp
}

public struct HouseholdSummary: Sendable, Equatable {
    public let id: Int64
    public let name: String
    public let members: Int
    public let owners: [String]
}
