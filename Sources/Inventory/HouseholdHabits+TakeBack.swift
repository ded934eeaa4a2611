import Foundation
import GRDB

extension HouseholdHabits {
    /// Called in the transaction of a + on a stock row (`Items.adjustQuantity`), after the ledger's
    /// trigger wrote what came in: uses of the same item earlier the same household day are taken
    /// back first, newest first, and only the rest came in. A − tapped once too often and put right
    /// is no use, and no purchase either.
    static func takeBackUses(_ db: Database, itemId: Item.ID, householdId: Household.ID, amount: Double, at time: Timestamp) throws {
        let today = try ShelfLife.today(db, householdId, at: time)
        let since = Timestamp(today.start(in: try timeZone(db, householdId)))
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT id, event, quantity FROM stock_use WHERE item_id = ? AND household_id = ? AND at >= ? ORDER BY id DESC"),
            arguments: [itemId, householdId, since])
        // The row the + just wrote comes first; without it (not a stock list) there is nothing to do.
        guard let came = rows.first, LedgerEvent(rawValue: came["event"]) == .stocked else { return }
        let rounded = { (value: Double) in (value * 1000).rounded() / 1000 }
        var left = rounded(min(amount, came["quantity"]))
        let total = left
        for row in rows.dropFirst() {
            guard left > 0, let event = LedgerEvent(rawValue: row["event"]), event == .used || event == .usedUp else { break }
            let quantity: Double = row["quantity"]
            let taken = min(left, quantity)
            let rest = rounded(quantity - taken)
            if rest > 0 {
                try db.execute(sql: "UPDATE stock_use SET quantity = ? WHERE id = ?", arguments: [rest, row["id"]])
            } else {
                try db.execute(sql: "DELETE FROM stock_use WHERE id = ?", arguments: [row["id"]])
            }
            left = rounded(left - taken)
        }
        guard left < total else { return }
        if left > 0 {
            try db.execute(sql: "UPDATE stock_use SET quantity = ? WHERE id = ?", arguments: [left, came["id"]])
        } else {
            try db.execute(sql: "DELETE FROM stock_use WHERE id = ?", arguments: [came["id"]])
        }
    }
}
