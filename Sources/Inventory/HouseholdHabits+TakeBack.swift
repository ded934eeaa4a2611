import Foundation
import GRDB

extension HouseholdHabits {
    /// Called in the transaction of a + on a stock row (`Items.adjustQuantity`), after the ledger's
    /// trigger wrote what came in: uses of the same item earlier the same household day are taken
    /// back first, newest first, and only the rest came in. A − tapped once too often and put right
    /// is no use, and no purchase either.
    static func takeBackUses(_ db: Database, _ item: Item, amount: Double, at time: Timestamp) throws {
        guard try ShelfLife.isStock(db, item.folderId) else { return }
        let (itemId, householdId) = (item.id, item.householdId)
        let since = LocalDays.midnight(before: time, in: try timeZone(db, householdId))
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT id, event, quantity FROM stock_use WHERE item_id = ? AND household_id = ? AND at >= ? ORDER BY id DESC"),
            arguments: [itemId, householdId, since])
        let update = { (id: Int64, quantity: Double) in
            try db.cachedStatement(sql: "UPDATE stock_use SET quantity = ? WHERE id = ?").execute(arguments: [quantity, id])
        }
        let delete = { (id: Int64) in try db.cachedStatement(sql: "DELETE FROM stock_use WHERE id = ?").execute(arguments: [id]) }
        // The row the + just wrote comes first.
        guard let came = rows.first, LedgerEvent(rawValue: came["event"]) == .stocked, Quantity.rounded(came["quantity"]) == Quantity.rounded(amount)
        else { return }
        var left = Quantity.rounded(amount)
        let total = left
        for row in rows.dropFirst() {
            guard left > 0, let event = LedgerEvent(rawValue: row["event"]), event == .used || event == .usedUp else { break }
            let quantity: Double = row["quantity"]
            let taken = min(left, quantity)
            let rest = Quantity.rounded(quantity - taken)
            if rest > 0 { try update(row["id"], rest) } else { try delete(row["id"]) }
            left = Quantity.rounded(left - taken)
        }
        guard left < total else { return }
        if left > 0 { try update(came["id"], left) } else { try delete(came["id"]) }
    }
}
