import GRDB

extension Cooking {
    /// Settings: what happens to items a cook uses up: "trash", or "shopping" (moved to `folderId`, a
    /// shopping list of the household, or nil for the first one). Errors: `.validation` with
    /// "used_up" (an unknown choice) or "used_up_folder" (not a shopping list); another household's
    /// folder is `.notFound`.
    public func setUsedUp(_ choice: String, folderId: Int64?, in scope: HouseholdScope) throws {
        guard ["trash", "shopping"].contains(choice) else { throw InventoryError.validation(["used_up": .usedUpInvalid]) }
        try database.writer.write { db in
            if let folderId {
                guard try Items.folder(db, folderId, scope.householdId).kind == .shopping else {
                    throw InventoryError.validation(["used_up_folder": .folderNotShopping])
                }
            }
            try db.execute(sql: "UPDATE household SET used_up = ?, used_up_folder_id = ? WHERE id = ?", arguments: [choice, folderId, scope.householdId])
            guard db.changesCount == 1 else { throw InventoryError.notFound }
        }
    }
}
