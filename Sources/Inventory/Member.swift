import GRDB
import Tagged

public enum Role: String, Codable, Sendable, CaseIterable {
    case owner, member, viewer

    /// Members and owners change items; viewers only read.
    public var canWrite: Bool { self != .viewer }
}

/// Someone of a household, who signs in.
@dynamicMemberLookup
public struct Member: StoredRecord {
    public typealias ID = Tagged<Member, Int64>

    public let id: ID
    public var draft: Draft

    public init(id: ID, draft: Draft) {
        self.id = id
        self.draft = draft
    }

    /// A member's fields, without their id: what an insert writes.
    public struct Draft: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
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
    }
}

/// Who is behind a session cookie: what every page needs to know about its reader.
public struct SignedIn: Sendable, Equatable {
    public let sessionId: DeviceSession.ID
    public let memberId: Member.ID
    public let memberName: String
    public let login: String
    public let role: Role
    public let language: String?
    /// The session's household: what every store method this reader's pages call is scoped to.
    public let household: HouseholdScope
    public let householdName: String
    public let timeZone: String
    public let csrfToken: String
    /// The household's change feed sequence when the session was read: a page rendered for this
    /// request shows everything up to it, and its live updates start from there.
    public var changeSequence: Int64 = 0
}

/// One signed-in device of a member.
public struct DeviceSession: Sendable, Equatable, Identifiable {
    /// A session's id (table `session`).
    public typealias ID = Tagged<DeviceSession, Int64>

    public let id: ID
    public let userAgent: String
    public let createdAt: Timestamp
    public let lastSeenAt: Timestamp
    public let isCurrent: Bool
}

/// What a single-use link (invitation or password reset) leads to.
public struct SingleUseLink: Sendable, Equatable, Identifiable {
    public enum Purpose: String, Sendable { case invitation, passwordReset = "password_reset" }
    public typealias ID = Tagged<SingleUseLink, Int64>

    public let id: ID
    public let purpose: Purpose
    public let householdId: Household.ID
    public let householdName: String
    public let memberId: Member.ID?
    public let role: Role?
    public let expiresAt: Timestamp
}

public struct HouseholdSummary: Sendable, Equatable {
    public let id: Household.ID
    public let name: String
    public let members: Int
    public let owners: [String]
}
