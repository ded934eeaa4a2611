import Foundation
import GRDB

/// Households that arrive whole (an import from another server, from Grocy): everything is
/// written in one transaction together with the owner's invitation.
extension Accounts {
    /// For an import by the person who runs the server: a new household with no starter folders
    /// (the import brings its own), filled by `fill` in the same transaction as the household and
    /// its owner invitation, so a failure anywhere leaves nothing behind. Returns the invitation
    /// token and what `fill` returned.
    public func createHousehold<T>(
        name: String, language: String = "en", filling fill: (NewHousehold) throws -> T
    ) throws -> (token: String, filled: T) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.storedLength <= 100 else { throw InventoryError.validation(["household": .householdNameRequired]) }
        return try database.write(by: nil, at: stamp()) { db in
            let household = try Household.Draft(name: trimmed, createdAt: stamp()).insertAndFetch(db, as: Household.self)
            try db.execute(sql: "UPDATE household SET language = ? WHERE id = ?", arguments: [language, household.id])
            let filled = try fill(NewHousehold(db: db, id: household.id))
            return (try insertOwnerInvitation(db, householdId: household.id), filled)
        }
    }

    /// Inside a transaction that creates a household: the owner invitation for it, committed or
    /// dropped with everything else. Returns the token.
    func insertOwnerInvitation(_ db: Database, householdId: Household.ID) throws -> String {
        try insertLink(db, purpose: .invitation, householdId: householdId, memberId: nil, role: .owner, lifetime: Self.invitationLifetime)
    }
}
