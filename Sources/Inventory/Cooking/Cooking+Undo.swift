import GRDB

extension Cooking {
    /// Gives back everything a cook took, in one transaction: each take's amount added back to its
    /// item (added, not set: someone may have changed the item since), trashed items out of the
    /// trash, moved ones back to the stock list they came from (or the first one if it is gone) with
    /// their due date, reminder and status; the produced item goes to the trash. `.conflict` if the
    /// cook was undone already; `.notFound` for another household's cook.
    public func undo(_ cookId: Cook.ID, in scope: HouseholdScope, by memberId: Member.ID) throws {
        let time = stamp()
        try database.write(by: memberId, at: time) { db in
            var cook = try Self.cook(db, cookId, scope.householdId)
            guard cook.undoneAt == nil else { throw InventoryError.conflict }
            let history = CookHistory(cookId: cookId, memberId: memberId, time: time)
            // Last take first: an item two ingredients took from comes out of the trash before the first take is added back.
            let takes = try CookTake.fetchAll(db, sql: "SELECT * FROM cook_take WHERE cook_id = ? ORDER BY id DESC", arguments: [cookId])
            for take in takes { try Self.giveBack(take, db, householdId: scope.householdId, history: history) }
            if let producedId = cook.producedItemId,
                var produced = try Item.fetchOne(
                    db, sql: "SELECT * FROM item WHERE id = ? AND household_id = ? AND deleted_at IS NULL", arguments: [producedId, scope.householdId])
            {
                produced.deletedAt = history.time
                produced.version += 1
                produced.updatedAt = history.time
                try produced.update(db)
                try history.record(db, produced, "deleted")
            }
            // What the cook used and made never happened: its rows of the use ledger go (those the giving
            // back itself wrote, at this write's time, too), so an undone cook is no use and no waste.
            try db.execute(
                sql: """
                    DELETE FROM stock_use WHERE household_id = ? AND item_id IN (SELECT item_id FROM cook_take WHERE cook_id = ? UNION SELECT ?)
                        AND (at = ? OR (at = ? AND (event IN ('used', 'used_up') OR item_id IS ?)))
                    """,
                arguments: [scope.householdId, cookId, cook.producedItemId, history.time, cook.cookedAt, cook.producedItemId])
            cook.undoneAt = history.time
            try cook.update(db)
            // A meal cooked from the plan is planned again: it reserves its ingredients once more.
            try db.execute(
                sql: "UPDATE meal SET cook_id = NULL, done = NULL, updated_at = ? WHERE cook_id = ? AND household_id = ?",
                arguments: [history.time, cookId, scope.householdId])
        }
    }

    static func giveBack(_ take: CookTake, _ db: Database, householdId: Household.ID, history: CookHistory) throws {
        // An item purged since has nothing to give back to (its takes went with it).
        guard var item = try Item.fetchOne(db, sql: "SELECT * FROM item WHERE id = ? AND household_id = ?", arguments: [take.itemId, householdId])
        else { return }
        let before = item.quantity
        var quantity = Quantity.rounded(before + take.amount)
        var restoredReminder = false
        let onShoppingList = item.deletedAt == nil && (try? Items.folder(db, item.folderId, householdId))?.kind == .shopping
        switch take.usedUp {
        case .trashed? where item.deletedAt != nil:
            item.deletedAt = nil
            // As `Items.restore`: the folder comes back with it.
            try db.execute(sql: "UPDATE folder SET deleted_at = NULL WHERE id = ?", arguments: [item.folderId])
            try history.record(db, item, "restored")
            restoredReminder = true
        case .moved? where onShoppingList:
            if let target = try Self.stockList(db, take.fromFolderId, householdId) {
                let from = item.folderId
                item.folderId = target.id
                item.due = take.due
                item.remindAt = take.due == nil ? nil : take.remindAt
                item.status = take.status.flatMap(ItemStatus.init(rawValue:)) ?? .unopened
                item.urgent = false
                Items.leaveBasket(&item.draft, for: .stock)
                // On the list it was "one to buy"; back in stock it has what the cook took.
                quantity = take.amount
                try history.record(db, item, "moved", from: from, to: target.id)
                restoredReminder = true
            }
        default:
            break
        }
        item.quantity = min(Quantity.maximum, quantity)
        item.version += 1
        item.updatedAt = history.time
        try item.update(db)
        if item.quantity != before {
            try history.record(db, item, "quantity", "\(Quantity.text(before)) → \(Quantity.text(item.quantity))")
        }
        if restoredReminder {
            // A reminder whose time passed meanwhile is not sent late (as `Items.restore`).
            try db.execute(sql: "UPDATE item SET reminder_sent_for = remind_at WHERE id = ? AND remind_at <= ?", arguments: [item.id, history.time])
        }
    }

    /// The stock list a moved item came from, or the first one if that is gone.
    static func stockList(_ db: Database, _ folderId: Folder.ID?, _ householdId: Household.ID) throws -> Folder? {
        if let folderId, let folder = try? Items.folder(db, folderId, householdId), folder.kind == .stock { return folder }
        return try firstFolder(db, .stock, householdId)
    }
}
