import Foundation
import GRDB

/// One folder's share of a household search: how many of its items match, and the first of
/// them in the folder's own order.
public struct SearchGroup: Sendable, Equatable {
    public let folder: Folder
    public let total: Int
    public let items: [Item]
}

/// Every folder's matches for one search, folders in the household's order; folders without a
/// match are left out.
public struct HouseholdSearch: Sendable, Equatable {
    public let text: String
    public let groups: [SearchGroup]

    public var total: Int { groups.reduce(0) { $0 + $1.total } }

    /// Rows shown per folder; the rest are one tap away on the folder's own filtered list.
    public static let perFolder = 10
}

extension Items {
    /// The household's items (not in the trash) whose name or note contains `text`, folded as the
    /// list search folds it (`SearchText`), grouped by folder. A folder shows its first
    /// `perFolder` matches in its own order: stock by due date (none last), shopping urgent first.
    ///
    /// A substring can use no b-tree range, so the search reads the index `item_search`
    /// (household_id, folder_id, search_text): only this household's entries, narrow ones, and the
    /// LIKE is decided there; the table is read for the matches only. (FTS5's trigram tokenizer
    /// cannot find the one- and two-character words Japanese searches are made of, 卵 or 牛乳.)
    public func search(_ text: String, in scope: HouseholdScope, perFolder: Int = HouseholdSearch.perFolder) throws -> HouseholdSearch {
        let needle = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !needle.isEmpty else { return HouseholdSearch(text: needle, groups: []) }
        return try database.writer.read { db in try Self.search(db, needle, scope.householdId, perFolder: perFolder) }
    }

    /// `search` inside a read transaction; `needle` is trimmed and not empty.
    static func search(_ db: Database, _ needle: String, _ householdId: Household.ID, perFolder: Int) throws -> HouseholdSearch {
        let folders = try Folder.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM folder WHERE household_id = ? AND deleted_at IS NULL ORDER BY position, id"),
            arguments: [householdId])
        var matches: [Int64: (total: Int, items: [Item])] = [:]
        let found = try Item.fetchList(
            db.cachedStatement(sql: Self.searchSQL), arguments: [householdId, SearchText.likePattern(needle), max(1, perFolder)]
        ) { item, row in (item: item, folderMatches: row["folder_matches"] as Int) }
        for (item, folderMatches) in found {
            matches[item.folderId, default: (folderMatches, [])].items.append(item)
        }
        let groups = folders.compactMap { folder in
            matches[folder.id!].map { SearchGroup(folder: folder, total: $0.total, items: $0.items) }
        }
        return HouseholdSearch(text: needle, groups: groups)
    }

    /// The matches of a household, ranked within their folder in the folder's order, the first
    /// `?` of each. The CASEs make one ORDER BY serve both kinds: stock (due IS NULL, due, name),
    /// shopping (urgent DESC, name). Items in a deleted folder are in the trash with it.
    static let searchSQL = """
        SELECT * FROM (
            SELECT i.*,
                   COUNT(*) OVER (PARTITION BY i.folder_id) AS folder_matches,
                   ROW_NUMBER() OVER (
                       PARTITION BY i.folder_id
                       ORDER BY CASE WHEN f.kind = 'stock' THEN i.due IS NULL ELSE -i.urgent END,
                                CASE WHEN f.kind = 'stock' THEN i.due END, i.name, i.id
                   ) AS place
            FROM item i INDEXED BY item_search CROSS JOIN folder f ON f.id = i.folder_id
            WHERE i.household_id = ? AND i.deleted_at IS NULL AND i.search_text LIKE ? ESCAPE '\\'
              AND f.deleted_at IS NULL
        ) WHERE place <= ? ORDER BY folder_id, place
        """
}
