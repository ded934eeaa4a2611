import GRDB

/// An item's history (`item_event`): what was done to it, by whom, when.
enum ItemHistory {
    /// Adds one line, inside the caller's transaction: the one place a history line is written.
    /// `cookId` names the cook that wrote it (so the item page can offer its Undo); `fromFolderId`
    /// and `toFolderId` keep a move or a purchase by id (named when read), `detail` what else changed.
    static func append(
        _ db: Database, householdId: Household.ID, itemId: Item.ID, memberId: Member.ID?, kind: String, detail: String = "", at time: Timestamp,
        cookId: Cook.ID? = nil, fromFolderId: Folder.ID? = nil, toFolderId: Folder.ID? = nil
    ) throws {
        try db.execute(
            sql: """
                INSERT INTO item_event (household_id, item_id, member_id, kind, detail, at, cook_id, from_folder_id, to_folder_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [householdId, itemId, memberId, kind, detail, time, cookId, fromFolderId, toFolderId])
    }
}
