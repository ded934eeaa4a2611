import Foundation
import GRDB

extension Accounts {
    /// Inside a transaction that creates a household (an import from another server): the owner
    /// invitation for it, committed or dropped with everything else. Returns the token.
    public func insertOwnerInvitation(_ db: Database, householdId: Int64) throws -> String {
        try insertLink(db, purpose: .invitation, householdId: householdId, memberId: nil, role: .owner, lifetime: Self.invitationLifetime)
    }
}
