import Foundation
import HTTPServer
import Inventory

/// Settings' "Used up by cooking" card: whether items a cook uses up go to the trash or to a
/// shopping list (and which), as the household chose.
struct UsedUpSection: Sendable {
    let toShopping: Bool
    let lists: [Choice]
    let saved: String?
    let error: String?

    var hasLists: Bool { !lists.isEmpty }

    /// Reads the household's choice and its shopping lists for the owner's settings page.
    struct Reader: Sendable {
        let settings: HouseholdSettings
        let items: Items

        func section(householdId: Int64, query: Parameters, t: Catalog) throws -> UsedUpSection {
            let household = try settings.household(householdId)
            let lists = try items.folders(householdId: householdId, kind: .shopping)
            let chosen = lists.first { $0.id == household.usedUpFolderId } ?? lists.first
            return UsedUpSection(
                toShopping: household.usedUp == "shopping",
                lists: lists.map { Choice(value: "\($0.id!)", label: displayName($0, t), selected: $0.id == chosen?.id) },
                saved: query["saved"] == "used_up" ? t[.cookUsedUpSaved] : nil,
                error: query["used_up_error"] != nil ? t[.cookUsedUpInvalid] : nil)
        }
    }
}
