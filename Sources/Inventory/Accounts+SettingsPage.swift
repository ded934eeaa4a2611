import Foundation
import GRDB

/// What the owner's settings page shows, read in one transaction (one snapshot).
public struct SettingsPageContents: Sendable {
    public let household: Household
    /// By name.
    public let members: [Member]
    public let invitations: [PendingInvitation]
    public let pushChannel: PushChannel?
    /// How the channel's messages went; nil without a channel.
    public let pushStatus: PushStatus?
    /// The message "Send a test" queued, when the address names one of this household's.
    public let testMessage: PushMessage?
    /// What the automatic backups did last and will do next.
    public let backups: StoredBackupStatus
    /// Whether the household is the only one on the server (then its owner may download an archive).
    public let holdsOnlyHousehold: Bool
    /// The household's shopping lists, in order (where used-up items may go).
    public let shoppingLists: [Folder]
}

extension Accounts {
    /// Everything the settings page of the household shows, with the test message
    /// `testMessage` when asked for, as it was at one instant.
    public func settingsPage(in scope: HouseholdScope, testMessage: PushMessage.ID?) throws -> SettingsPageContents {
        let now = stamp()
        return try database.writer.read { db in
            let channel = try PushChannels.channel(db, scope.householdId)
            return SettingsPageContents(
                household: try HouseholdSettings.household(db, scope.householdId), members: try Self.members(db, scope.householdId),
                invitations: try Self.pendingInvitations(db, scope.householdId, at: now), pushChannel: channel,
                pushStatus: channel == nil ? nil : try Outbox.status(db, scope.householdId),
                testMessage: try testMessage.flatMap { try Outbox.message(db, $0, scope.householdId) }, backups: try BackupRecords.status(db),
                holdsOnlyHousehold: try BackupRecords.holdsOnly(db, scope.householdId), shoppingLists: try Items.folders(db, scope.householdId, kind: .shopping)
            )
        }
    }
}
