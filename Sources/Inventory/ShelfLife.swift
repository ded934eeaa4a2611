import Foundation
import GRDB
import Tagged

/// How long a product usually keeps in this household, learned from every registration: each time
/// an item goes into a stock list with a due date (registered there, or bought into it), the days
/// from that day to its due date are a sample (`shelf_life`); editing the item's due date corrects
/// its sample. The usual shelf life is the median of the product's newest samples in that stock
/// list (the freezer keeps things longer than the fridge), else in any stock list.
///
/// A product is its barcode, else its name folded as search folds it, and its unit. Imports teach
/// nothing: an imported item's due date says how long it has left, not how long it was given.
public enum ShelfLife {
    /// Samples the median is taken over: a product's newest in the stock list.
    static let consulted = 10
    /// Samples each product keeps; older ones are deleted as new ones come.
    static let kept = 30
    /// Further than this from its registration (five years), a due date is a typing mistake, not a
    /// shelf life; so is one before it.
    public static let plausible = 0...(5 * 366)

    /// A product's key: its barcode, else its folded name and its unit.
    public static func key(name: String, unit: ItemUnit, barcode: String?) -> String {
        if let barcode, !barcode.isEmpty { return key(barcode: barcode) }
        return "name:\(unit.rawValue):\(SearchText.fold(name.trimmingCharacters(in: .whitespacesAndNewlines)))"
    }

    static let barcodePrefix = "barcode:"
    static func key(barcode: String) -> String { barcodePrefix + barcode }

    static func key(_ item: Item) -> String { key(name: item.name, unit: item.unit, barcode: item.barcode) }

    /// The median of `days` (the lower of the middle two when their number is even), without the
    /// implausible ones; nil when none is left.
    static func median(_ days: [Int]) -> Int? {
        let sorted = days.filter(plausible.contains).sorted()
        return sorted.isEmpty ? nil : sorted[(sorted.count - 1) / 2]
    }

    /// Called in the transaction that puts `item` into a stock list at `time` (a registration or a
    /// purchase): its due date, if it has one, is a sample of its product. `purchase`: bought into
    /// a row that already held the product, so the sample belongs to no item of its own.
    static func registered(_ db: Database, _ item: Item, at time: Timestamp, joining: Bool = false) throws {
        guard let due = item.due, try isStock(db, item.folderId) else { return }
        let today = try Self.today(db, item.householdId, at: time)
        let key = key(item)
        try db.execute(
            sql: """
                INSERT INTO shelf_life (household_id, product_key, folder_id, item_id, registered_on, days, at) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (item_id) DO UPDATE SET
                    product_key = excluded.product_key, folder_id = excluded.folder_id, registered_on = excluded.registered_on,
                    days = excluded.days, at = excluded.at
                """,
            arguments: [item.householdId, key, item.folderId, joining ? nil : item.id, today, due.days(since: today), time])
        // Each product keeps its newest samples.
        try db.execute(
            sql: """
                DELETE FROM shelf_life WHERE household_id = ? AND product_key = ? AND id NOT IN (
                    SELECT id FROM shelf_life WHERE household_id = ? AND product_key = ? ORDER BY id DESC LIMIT ?)
                """,
            arguments: [item.householdId, key, item.householdId, key, kept])
    }

    /// Called in the transaction that saves an edit of `item`, which was in folder `previous`: its
    /// sample follows its due date, name and stock list (a due date cleared, or a move to a shopping
    /// list, removes it). Moved from a shopping list into a stock list, it is registered there.
    static func edited(_ db: Database, _ item: Item, from previous: Folder.ID, at time: Timestamp) throws {
        guard let due = item.due, try isStock(db, item.folderId) else {
            try db.execute(sql: "DELETE FROM shelf_life WHERE item_id = ?", arguments: [item.id])
            return
        }
        if previous != item.folderId, try !isStock(db, previous) { return try registered(db, item, at: time) }
        try db.execute(
            sql: """
                UPDATE shelf_life SET product_key = ?, folder_id = ?, days = julianday(?) - julianday(registered_on) WHERE item_id = ?
                """,
            arguments: [key(item), item.folderId, due, item.id])
    }

    /// The usual shelf life in days of product `key` in stock list `folderId`: the median of its
    /// newest samples there, else of its newest in any stock list; nil when nothing is learned.
    /// A shelf life set by hand on a barcode's product page stands for what was learned.
    static func usualDays(_ db: Database, householdId: Household.ID, key: String, folderId: Folder.ID?) throws -> Int? {
        if key.hasPrefix(barcodePrefix),
            let days = try Int.fetchOne(
                db.cachedStatement(sql: "SELECT shelf_life_days FROM product WHERE household_id = ? AND barcode = ?"),
                arguments: [householdId, String(key.dropFirst(barcodePrefix.count))])
        {
            return days
        }
        return try learnedDays(db, householdId: householdId, key: key, folderId: folderId)
    }

    /// What the samples of product `key` say, whatever was set by hand.
    static func learnedDays(_ db: Database, householdId: Household.ID, key: String, folderId: Folder.ID?) throws -> Int? {
        let newest = """
            SELECT days FROM shelf_life WHERE household_id = ? AND product_key = ? AND (? IS NULL OR folder_id = ?) ORDER BY id DESC LIMIT ?
            """
        func newestDays(in folder: Folder.ID?) throws -> [Int] {
            try Int.fetchAll(db.cachedStatement(sql: newest), arguments: [householdId, key, folder, folder, consulted])
        }
        if let folderId, let median = median(try newestDays(in: folderId)) { return median }
        return median(try newestDays(in: nil))
    }

    /// The due date product `key` usually gets when it goes into stock list `folderId` at `time`:
    /// the household's today plus the usual shelf life.
    static func usualDue(_ db: Database, householdId: Household.ID, key: String, folderId: Folder.ID?, at time: Timestamp) throws -> CalendarDay? {
        guard let days = try usualDays(db, householdId: householdId, key: key, folderId: folderId) else { return nil }
        return try today(db, householdId, at: time).adding(days: days)
    }

    /// Forgets what was learned of product `key`.
    static func forget(_ db: Database, householdId: Household.ID, key: String) throws {
        try db.execute(sql: "DELETE FROM shelf_life WHERE household_id = ? AND product_key = ?", arguments: [householdId, key])
    }

    static func isStock(_ db: Database, _ folderId: Folder.ID) throws -> Bool {
        try String.fetchOne(db.cachedStatement(sql: "SELECT kind FROM folder WHERE id = ?"), arguments: [folderId]) == FolderKind.stock.rawValue
    }

    /// The household's today at `time`, in its time zone (UTC when it names none this server knows).
    static func today(_ db: Database, _ householdId: Household.ID, at time: Timestamp) throws -> CalendarDay {
        let zone = try String.fetchOne(db.cachedStatement(sql: "SELECT time_zone FROM household WHERE id = ?"), arguments: [householdId])
        return CalendarDay.today(in: zone.flatMap(TimeZone.init(identifier:)) ?? .gmt, now: time.date)
    }
}

extension Items {
    /// The due date each item would usually get if it went into stock list `stockFolderId` now (see
    /// `ShelfLife`); items with nothing learned are left out.
    public func usualDues(for items: [Item], into stockFolderId: Folder.ID, in scope: HouseholdScope) throws -> [Item.ID: CalendarDay] {
        let time = stamp()
        return try database.writer.read { db in
            var dues: [Item.ID: CalendarDay] = [:]
            for item in items where item.householdId == scope.householdId {
                dues[item.id] = try ShelfLife.usualDue(
                    db, householdId: scope.householdId, key: ShelfLife.key(item), folderId: stockFolderId, at: time)
            }
            return dues
        }
    }
}
