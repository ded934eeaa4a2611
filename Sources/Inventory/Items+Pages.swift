import Foundation
import GRDB

/// What a stock or shopping list's page shows, read in one transaction (one snapshot).
public struct ListPageContents: Sendable {
    public let folder: Folder
    public let household: Household
    /// The household's due window at the instant asked for.
    public let window: DueWindow
    /// The filter as applied: "expired" only on a stock list (shopping items have no due date).
    public let filter: ListFilter
    public let page: ListPage
    /// Every folder of the household, in order (move targets, shopping lists, notices).
    public let folders: [Folder]
}

/// What an item's page shows, read in one transaction (one snapshot).
public struct ItemPageContents: Sendable {
    public let item: Item
    public let household: Household
    public let folder: Folder
    /// Newest first.
    public let history: [ItemEvent]
}

/// What the household search (the folders page with a query) shows, read in one transaction.
public struct SearchPageContents: Sendable {
    public let search: HouseholdSearch
    public let household: Household
    /// Every folder of the household, in order.
    public let folders: [Folder]
}

extension Items {
    /// Page `page` of folder `folderId` under the filter (`text`, `kinds`, `status`, and expired
    /// items only when `expiredOnly` and the folder is a stock list), with the household and its
    /// folders, as they were at one instant. `now` places the household's due window.
    public func listPage(
        _ folderId: Int64, in scope: HouseholdScope, text: String, kinds: [String], status: String?, expiredOnly: Bool, page: Int, now: Date
    ) throws -> ListPageContents {
        try database.writer.read { db in
            let folder = try Self.folder(db, folderId, scope.householdId)
            let household = try HouseholdSettings.household(db, scope.householdId)
            let window = DueWindow(household: household, now: now)
            let filter = ListFilter(text: text, kinds: kinds, status: status, expiredIn: folder.kind == .stock && expiredOnly ? window : nil)
            let query = try ListQuery(folder: folder, filter: filter)
            return ListPageContents(
                folder: folder, household: household, window: window, filter: filter, page: try Self.page(db, query, of: folder, page: page),
                folders: try Self.folders(db, scope.householdId))
        }
    }

    /// Item `id` (outside the trash) with its household, its folder and its history, as they were
    /// at one instant.
    public func itemPage(_ id: Int64, in scope: HouseholdScope) throws -> ItemPageContents {
        try database.writer.read { db in
            let item = try Self.item(db, id, scope.householdId)
            return ItemPageContents(
                item: item, household: try HouseholdSettings.household(db, scope.householdId), folder: try Self.folder(db, item.folderId, scope.householdId),
                history: try Self.history(db, of: id, scope.householdId))
        }
    }

    /// `search(_:in: )` with the household and its folders, as they were at one instant.
    public func searchPage(_ text: String, in scope: HouseholdScope) throws -> SearchPageContents {
        let needle = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return try database.writer.read { db in
            SearchPageContents(
                search: needle.isEmpty
                    ? HouseholdSearch(text: needle, groups: []) : try Self.search(db, needle, scope.householdId, perFolder: HouseholdSearch.perFolder),
                household: try HouseholdSettings.household(db, scope.householdId), folders: try Self.folders(db, scope.householdId))
        }
    }
}
