import Foundation
import GRDB
import Tagged

/// What the household keeps in stock of one product (its folded name and unit): at least
/// `minimum` in its stock lists; under that, enough to refill up to `refillTo`, in whole packs of
/// `pack`, goes on the household's keep list (`KeepStock`).
public struct KeepRule: Sendable, Equatable {
    public typealias ID = Tagged<KeepRule, Int64>

    public let id: ID
    /// The name as it was first kept: what a row the rule adds is called.
    public let name: String
    public let unit: ItemUnit
    public let minimum: Double
    public let refillTo: Double
    public let pack: Double
    /// What the stock lists hold of it now (expired items left out unless the household counts them).
    public let inStock: Double
    /// What the rule has on the shopping lists now (0: nothing, or declined by a person).
    public let onList: Double

    public var isBelowMinimum: Bool { inStock < minimum }
}

/// Where refills go and what counts as stock, the household's keep settings.
public struct KeepSettings: Sendable, Equatable {
    /// The shopping list refills go to; nil: the first shopping list.
    public let folderId: Folder.ID?
    /// Whether expired items count as stock.
    public let countsExpired: Bool
}

/// Keep rules, checked in the transaction of every write that changes a kept product's stock.
///
/// Triggers (`Schema.v19`) note each kept product a write touched, whoever wrote it, in
/// `keep_check`; `AppDatabase.write(by:at:)` calls `checkTouched` before it commits. For each, the
/// rule's share of the shopping list follows the stock: under the minimum, the shortfall up to the
/// refill amount (less what a person already put on a shopping list, in whole packs) is on the keep
/// list, in a row of its own or added to a person's row of the same name and unit; back at the
/// minimum, the rule's share goes again (a row that was wholly the rule's is deleted, a person's
/// row keeps what the person put there). A person who changes the rule's row makes it theirs; one
/// who takes it off the list declines the refill until the stock recovers once.
///
/// The items of a kept product say "running low" exactly while the stock is under the minimum
/// (unopened ones and ones with no status; opened ones stay opened), and no status once it is not.
enum KeepStock {
    /// A product's name as keep rules compare it: trimmed and folded as search folds it.
    static func nameKey(_ name: String) -> String { SearchText.fold(name.trimmingCharacters(in: .whitespacesAndNewlines)) }

    /// Checks every kept product the transaction touched so far, at `time`.
    static func checkTouched(_ db: Database, at time: Timestamp) throws {
        let touched = try Row.fetchAll(db.cachedStatement(sql: "SELECT household_id, name_key, unit FROM keep_check"))
        if touched.isEmpty { return }
        for row in touched {
            try check(db, householdId: row["household_id"], nameKey: row["name_key"], unit: row["unit"], at: time)
        }
        // The checks' own writes noted the same products again: they are in line now.
        try db.cachedStatement(sql: "DELETE FROM keep_check").execute()
    }

    /// Brings the shopping list and the running-low marks of one product in line with its rule.
    static func check(_ db: Database, householdId: Household.ID, nameKey: String, unit: String, at time: Timestamp) throws {
        guard
            let rule = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM keep_rule WHERE household_id = ? AND name_key = ? AND unit = ?"),
                arguments: [householdId, nameKey, unit])
        else { return }
        let ruleId: KeepRule.ID = rule["id"]
        let stock = try inStock(db, householdId: householdId, nameKey: nameKey, unit: unit, at: time)
        let minimum: Double = rule["minimum"]
        let below = stock < minimum
        var declined: Bool = rule["declined"]
        if declined, !below {
            try db.cachedStatement(sql: "UPDATE keep_rule SET declined = 0 WHERE id = ?").execute(arguments: [ruleId])
            declined = false
        }
        var share = 0.0
        if below, !declined {
            let personal =
                try Double.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT TOTAL(i.quantity - IFNULL(i.refill_quantity, 0)) FROM item i JOIN folder f ON f.id = i.folder_id
                            WHERE i.household_id = ? AND i.name_key = ? AND i.unit = ? AND i.deleted_at IS NULL
                                AND f.kind = 'shopping' AND f.deleted_at IS NULL
                            """), arguments: [householdId, nameKey, unit]) ?? 0
            let needed = (rule["refill_to"] as Double) - stock - personal
            let pack: Double = rule["pack"]
            if needed > 0 { share = min((needed / pack - 1e-9).rounded(.up) * pack, Quantity.maximum) }
        }
        try setShare(db, rule: rule, share: share, householdId: householdId, nameKey: nameKey, unit: unit, at: time)
        try markRunningLow(db, below: below, householdId: householdId, nameKey: nameKey, unit: unit, at: time)
    }

    /// What the stock lists hold of a product at `time`.
    static func inStock(_ db: Database, householdId: Household.ID, nameKey: String, unit: String, at time: Timestamp) throws -> Double {
        let countsExpired =
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT keep_counts_expired FROM household WHERE id = ?"), arguments: [householdId]) ?? false
        let today = try ShelfLife.today(db, householdId, at: time)
        return try Double.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT TOTAL(i.quantity) FROM item i JOIN folder f ON f.id = i.folder_id
                    WHERE i.household_id = ? AND i.name_key = ? AND i.unit = ? AND i.deleted_at IS NULL
                        AND f.kind = 'stock' AND f.deleted_at IS NULL AND (? OR i.due IS NULL OR i.due >= ?)
                    """), arguments: [householdId, nameKey, unit, countsExpired, today]) ?? 0
    }

    /// Makes the rule's share of the shopping lists `share` (0: none).
    static func setShare(
        _ db: Database, rule: Row, share: Double, householdId: Household.ID, nameKey: String, unit: String, at time: Timestamp
    ) throws {
        let ruleId: KeepRule.ID = rule["id"]
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT id, quantity, refill_quantity FROM item WHERE keep_rule_id = ? AND deleted_at IS NULL ORDER BY id"),
            arguments: [ruleId])
        let current = rows.reduce(0.0) { $0 + ($1["refill_quantity"] as Double? ?? 0) }
        if abs(current - share) < 1e-9 { return }
        // One row holds the share: the first; any other (two rows merged by hand) gives its share back.
        for (index, row) in rows.enumerated() {
            let quantity: Double = row["quantity"]
            let refill: Double = row["refill_quantity"] ?? 0
            let id: Item.ID = row["id"]
            if index == 0, share > 0 {
                try db.cachedStatement(sql: "UPDATE item SET quantity = ?, refill_quantity = ?, version = version + 1, updated_at = ? WHERE id = ?").execute(
                    arguments: [max(quantity - refill, 0) + share, share, time, id])
            } else if quantity <= refill + 1e-9 {
                try db.cachedStatement(sql: "DELETE FROM item WHERE id = ?").execute(arguments: [id])
            } else {
                try db.cachedStatement(
                    sql: """
                        UPDATE item SET quantity = ?, refill_quantity = NULL, keep_rule_id = NULL, version = version + 1, updated_at = ? WHERE id = ?
                        """
                ).execute(arguments: [quantity - refill, time, id])
            }
        }
        guard rows.isEmpty, share > 0, let listId = try keepList(db, householdId) else { return }
        // A person's row of the same name and unit on the keep list takes the share; else a row of its own.
        if let personal = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT id, quantity FROM item WHERE folder_id = ? AND name_key = ? AND unit = ? AND deleted_at IS NULL ORDER BY id LIMIT 1
                    """), arguments: [listId, nameKey, unit])
        {
            try db.cachedStatement(
                sql: """
                    UPDATE item SET quantity = ?, refill_quantity = ?, keep_rule_id = ?, version = version + 1, updated_at = ? WHERE id = ?
                    """
            ).execute(arguments: [(personal["quantity"] as Double) + share, share, ruleId, time, personal["id"] as Item.ID])
            return
        }
        let draft = Item.Draft(
            householdId: householdId, folderId: listId, name: rule["name"], quantity: share, unit: ItemUnit(rawValue: unit) ?? .piece,
            kind: ItemKind(rawValue: rule["kind"]) ?? .other, createdAt: time, updatedAt: time)
        let item = try draft.insertAndFetch(db, as: Item.self)
        try db.cachedStatement(sql: "UPDATE item SET refill_quantity = ?, keep_rule_id = ? WHERE id = ?").execute(arguments: [share, ruleId, item.id])
        let memberId = try Member.ID.fetchOne(db.cachedStatement(sql: "SELECT member_id FROM change_actor WHERE id = 1"))
        try ItemHistory.append(db, householdId: householdId, itemId: item.id, memberId: memberId, kind: "created", at: time)
    }

    /// The product's unopened items and those with no status say "running low" while it is under the
    /// minimum; once it is not, none does.
    static func markRunningLow(_ db: Database, below: Bool, householdId: Household.ID, nameKey: String, unit: String, at time: Timestamp) throws {
        try db.cachedStatement(
            sql: """
                UPDATE item SET status = ?, version = version + 1, updated_at = ?
                WHERE household_id = ? AND name_key = ? AND unit = ? AND deleted_at IS NULL
                    AND (CASE WHEN ? THEN status IS NULL OR status = 'unopened' ELSE status = 'running_low' END)
                    AND folder_id IN (SELECT id FROM folder WHERE household_id = ? AND kind = 'stock')
                """
        ).execute(arguments: [below ? "running_low" : nil, time, householdId, nameKey, unit, below, householdId])
    }

    /// The names of the household's kept products under their minimum at `time`, by name: one
    /// statement, whatever the number of rules.
    static func belowMinimum(_ db: Database, _ householdId: Household.ID, at time: Timestamp) throws -> [String] {
        let today = try ShelfLife.today(db, householdId, at: time)
        return try String.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT r.name FROM keep_rule r JOIN household h ON h.id = r.household_id
                    WHERE r.household_id = ? AND r.minimum > (
                        SELECT TOTAL(i.quantity) FROM item i JOIN folder f ON f.id = i.folder_id
                        WHERE i.household_id = r.household_id AND i.name_key = r.name_key AND i.unit = r.unit AND i.deleted_at IS NULL
                            AND f.kind = 'stock' AND f.deleted_at IS NULL AND (h.keep_counts_expired OR i.due IS NULL OR i.due >= ?))
                    ORDER BY r.name_key, r.unit
                    """), arguments: [householdId, today])
    }

    /// The shopping list refills go to: the household's choice while it is a shopping list outside
    /// the trash, else its first shopping list; nil when it has none.
    static func keepList(_ db: Database, _ householdId: Household.ID) throws -> Folder.ID? {
        try Folder.ID.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT f.id FROM folder f JOIN household h ON h.id = f.household_id
                    WHERE f.household_id = ? AND f.kind = 'shopping' AND f.deleted_at IS NULL
                    ORDER BY f.id IS NOT h.keep_folder_id, f.position, f.id LIMIT 1
                    """), arguments: [householdId])
    }
}

/// The household's keep rules, set from an item's page: what a product (the item's name and unit)
/// should never run out of.
public struct KeepRules: Sendable {
    let database: AppDatabase
    let clock: WallClock

    public init(database: AppDatabase, clock: WallClock = .system) {
        self.database = database
        self.clock = clock
    }

    /// The rule kept for the product of item `itemId` (its name and unit), nil when none is.
    public func rule(forItem itemId: Item.ID, in scope: HouseholdScope) throws -> KeepRule? {
        let time = Timestamp(clock.now())
        return try database.writer.read { db in
            let item = try Items.item(db, itemId, scope.householdId)
            return try Self.rules(db, scope.householdId, at: time, nameKey: KeepStock.nameKey(item.name), unit: item.unit.rawValue).first
        }
    }

    /// Every rule of the household, by name.
    public func all(in scope: HouseholdScope) throws -> [KeepRule] {
        let time = Timestamp(clock.now())
        return try database.writer.read { db in try Self.rules(db, scope.householdId, at: time) }
    }

    /// How many kept products are under their minimum now.
    public func belowMinimumCount(in scope: HouseholdScope) throws -> Int { try belowMinimum(in: scope).count }

    /// How many kept products are under their minimum now, and the list their refills go to (the
    /// folders page's "3 below minimum" on that list): one statement, whatever the number of rules.
    public func belowMinimum(in scope: HouseholdScope) throws -> (count: Int, listId: Folder.ID?) {
        let time = Timestamp(clock.now())
        return try database.writer.read { db in
            let count = try KeepStock.belowMinimum(db, scope.householdId, at: time).count
            return (count, count > 0 ? try KeepStock.keepList(db, scope.householdId) : nil)
        }
    }

    static func rules(_ db: Database, _ householdId: Household.ID, at time: Timestamp, nameKey: String? = nil, unit: String? = nil) throws -> [KeepRule] {
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT r.id, r.name, r.name_key, r.unit, r.minimum, r.refill_to, r.pack,
                        (SELECT TOTAL(i.refill_quantity) FROM item i WHERE i.keep_rule_id = r.id AND i.deleted_at IS NULL) AS on_list
                    FROM keep_rule r WHERE r.household_id = ?1 AND (?2 IS NULL OR (r.name_key = ?2 AND r.unit = ?3)) ORDER BY r.name_key, r.unit
                    """), arguments: [householdId, nameKey, unit])
        return try rows.map { row in
            KeepRule(
                id: row["id"], name: row["name"], unit: ItemUnit(rawValue: row["unit"]) ?? .piece, minimum: row["minimum"], refillTo: row["refill_to"],
                pack: row["pack"], inStock: try KeepStock.inStock(db, householdId: householdId, nameKey: row["name_key"], unit: row["unit"], at: time),
                onList: row["on_list"])
        }
    }

    /// Keeps the product of item `itemId` in stock: at least `minimum`, refilled up to `refillTo`
    /// (blank: the minimum) in packs of `pack` (blank: 1), as typed. Checked at once: a product
    /// already under it goes on the keep list. Errors: `.validation` with "keep_minimum",
    /// "keep_refill_to" or "keep_pack".
    public func keep(
        forItem itemId: Item.ID, minimum: String, refillTo: String, pack: String, in scope: HouseholdScope, by memberId: Member.ID
    ) throws {
        var errors: [String: FieldProblem] = [:]
        let minimumValue = Self.amount(minimum)
        if minimumValue == nil || minimumValue! <= 0 { errors["keep_minimum"] = .keepMinimumInvalid }
        let refillValue = refillTo.trimmingCharacters(in: .whitespaces).isEmpty ? minimumValue : Self.amount(refillTo)
        if let refillValue, let minimumValue, refillValue < minimumValue {
            errors["keep_refill_to"] = .keepRefillBelowMinimum
        } else if refillValue == nil, minimumValue != nil {
            errors["keep_refill_to"] = .keepAmountInvalid
        }
        let packValue = pack.trimmingCharacters(in: .whitespaces).isEmpty ? 1 : Self.amount(pack)
        if packValue == nil || packValue! <= 0 { errors["keep_pack"] = .keepAmountInvalid }
        guard errors.isEmpty, let minimumValue, let refillValue, let packValue else { throw InventoryError.validation(errors) }
        let time = Timestamp(clock.now())
        try database.write(by: memberId, at: time) { db in
            let item = try Items.item(db, itemId, scope.householdId)
            let nameKey = KeepStock.nameKey(item.name)
            try db.execute(
                sql: """
                    INSERT INTO keep_rule (household_id, name, name_key, unit, minimum, refill_to, pack, kind, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (household_id, name_key, unit) DO UPDATE SET
                        minimum = excluded.minimum, refill_to = excluded.refill_to, pack = excluded.pack, declined = 0
                    """,
                arguments: [
                    scope.householdId, item.name.trimmingCharacters(in: .whitespacesAndNewlines), nameKey, item.unit, minimumValue, refillValue,
                    packValue, item.kind, time,
                ])
            try KeepStock.check(db, householdId: scope.householdId, nameKey: nameKey, unit: item.unit.rawValue, at: time)
        }
    }

    /// Stops keeping the product of item `itemId`: the rule's share of the shopping list goes (a
    /// person's row keeps what they put there), and its items stop saying "running low".
    public func stopKeeping(forItem itemId: Item.ID, in scope: HouseholdScope, by memberId: Member.ID) throws {
        let time = Timestamp(clock.now())
        try database.write(by: memberId, at: time) { db in
            let item = try Items.item(db, itemId, scope.householdId)
            let nameKey = KeepStock.nameKey(item.name)
            guard
                let rule = try Row.fetchOne(
                    db, sql: "SELECT * FROM keep_rule WHERE household_id = ? AND name_key = ? AND unit = ?",
                    arguments: [scope.householdId, nameKey, item.unit])
            else { return }
            try KeepStock.setShare(db, rule: rule, share: 0, householdId: scope.householdId, nameKey: nameKey, unit: item.unit.rawValue, at: time)
            try KeepStock.markRunningLow(db, below: false, householdId: scope.householdId, nameKey: nameKey, unit: item.unit.rawValue, at: time)
            try db.execute(sql: "DELETE FROM keep_rule WHERE id = ?", arguments: [rule["id"] as KeepRule.ID])
        }
    }

    /// The household's keep settings.
    public func settings(in scope: HouseholdScope) throws -> KeepSettings {
        try database.writer.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT keep_folder_id, keep_counts_expired FROM household WHERE id = ?", arguments: [scope.householdId])
            return KeepSettings(folderId: row?["keep_folder_id"], countsExpired: row?["keep_counts_expired"] ?? false)
        }
    }

    /// Sets where refills go (`folderId`: a shopping list of the household, nil: the first) and
    /// whether expired items count as stock; every rule is checked again. Errors: `.validation`
    /// with "keep_folder" (not a shopping list); another household's folder is `.notFound`.
    public func setSettings(folderId: Folder.ID?, countsExpired: Bool, in scope: HouseholdScope, by memberId: Member.ID) throws {
        let time = Timestamp(clock.now())
        try database.write(by: memberId, at: time) { db in
            if let folderId {
                guard try Items.folder(db, folderId, scope.householdId).kind == .shopping else {
                    throw InventoryError.validation(["keep_folder": .folderNotShopping])
                }
            }
            try db.execute(
                sql: "UPDATE household SET keep_folder_id = ?, keep_counts_expired = ? WHERE id = ?",
                arguments: [folderId, countsExpired, scope.householdId])
            try Self.checkAll(db, scope.householdId, at: time)
        }
    }

    /// Checks every rule of the household again at `time`: items that expired since the last write
    /// no longer count as stock. The reminder engine does it at the start of each of the
    /// household's days (`ReminderQueue.checkKeepRulesOnNewDays`).
    static func checkAll(_ db: Database, _ householdId: Household.ID, at time: Timestamp) throws {
        for row in try Row.fetchAll(db, sql: "SELECT name_key, unit FROM keep_rule WHERE household_id = ?", arguments: [householdId]) {
            try KeepStock.check(db, householdId: householdId, nameKey: row["name_key"], unit: row["unit"], at: time)
        }
    }

    /// An amount as typed (full-width digits and a decimal comma allowed), within the largest
    /// quantity; nil when it is not one.
    static func amount(_ text: String) -> Double? {
        let typed = text.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
        guard let value = Double(typed), value.isFinite, value >= 0, value <= Quantity.maximum else { return nil }
        return (value * 1000).rounded() / 1000
    }
}
