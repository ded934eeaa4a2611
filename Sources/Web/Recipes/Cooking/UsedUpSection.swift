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

    /// The household's choice among its shopping lists, and the notice after saving it.
    init(household: Household, shoppingLists lists: [Folder], query: Parameters, t: Catalog) {
        let chosen = lists.first { $0.id == household.usedUpFolderId } ?? lists.first
        toShopping = household.usedUp == "shopping"
        self.lists = lists.map { Choice(value: "\($0.id)", label: displayName($0, t), selected: $0.id == chosen?.id) }
        saved = query["saved"] == "used_up" ? t[.cookUsedUpSaved] : nil
        error = query["used_up_error"] != nil ? t[.cookUsedUpInvalid] : nil
    }
}
