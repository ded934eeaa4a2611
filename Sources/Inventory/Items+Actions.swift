import Foundation
import GRDB
import Tagged

/// What "Add to the list" did: a new row, or a row of the same name and unit that was there
/// (`joined`: its quantity before; it keeps the larger of the two).
public struct ListAddition: Sendable, Equatable {
    public let id: Item.ID
    public let joined: Double?
    /// The row's quantity now.
    public let quantity: Double
}

/// An item in the trash, with the folder it came from.
public struct TrashEntry: Sendable, Equatable {
    public let item: Item
    public let folderName: String
    /// The folder's starter key while unrenamed (see `Folder.starter`).
    public var folderStarter: String? = nil
}

extension Items {
    /// − / + on a list row: the new quantity (never below 0). A step that is not a finite number
    /// within `Quantity.maximum`, or that would pass it, is refused: `delta=inf` stored infinity.
    ///
    /// `seen`: the quantity the step was made on, when it was made on a page that may be old (a
    /// phone offline sends it with an `intent`). A step changes one field, so the three-way merge
    /// of `ItemMerge` comes down to that field: whatever else others changed meanwhile stays theirs;
    /// if they changed the quantity too, to something other than this step makes it,
    /// `.quantityChanged` is thrown and nothing is written (the person decides).
    @discardableResult
    public func adjustQuantity(
        _ id: Item.ID, by delta: Double, seen: Double? = nil, intent: IntentId? = nil, in scope: HouseholdScope, by memberId: Member.ID
    ) throws -> Double {
        let time = stamp()
        return try database.write(by: memberId, at: time, intent: intent) { db in
            // Another household's item is not found, whatever the step.
            var item = try Self.item(db, id, scope.householdId)
            guard delta.isFinite, abs(delta) <= Quantity.maximum else { throw InventoryError.validation(["delta": .quantityStepInvalid]) }
            let before = item.quantity
            let stepped = { (from: Double) in max(0, ((from + delta) * 1000).rounded() / 1000) }
            if let seen, Quantity.text(seen) != Quantity.text(before) {
                // Both sides changed the quantity: the same way is no clash (nothing left to do).
                guard seen.isFinite, Quantity.text(stepped(seen)) == Quantity.text(before) else {
                    throw InventoryError.quantityChanged(current: before)
                }
                return before
            }
            let after = stepped(before)
            guard after <= Quantity.maximum else { throw InventoryError.validation(["delta": .quantityTooLarge]) }
            item.quantity = after
            guard item.quantity != before else { return before }
            item.version += 1
            item.updatedAt = time
            try item.update(db)
            if item.quantity > before {
                try HouseholdHabits.takeBackUses(db, item, amount: item.quantity - before, at: time)
            }
            try Self.record(db, item, "quantity", "\(Quantity.text(before)) → \(Quantity.text(item.quantity))", by: memberId, at: item.updatedAt)
            return item.quantity
        }
    }

    public func markOpened(_ id: Item.ID, in scope: HouseholdScope, by memberId: Member.ID) throws {
        let time = stamp()
        try database.write(by: memberId, at: time) { db in
            var item = try Self.item(db, id, scope.householdId)
            guard item.status != .opened else { return }
            let folder = try Self.folder(db, item.folderId, scope.householdId)
            guard folder.kind == .stock else { throw InventoryError.notFound }
            item.status = .opened
            item.version += 1
            item.updatedAt = time
            try item.update(db)
            try Self.record(db, item, "opened", by: memberId, at: item.updatedAt)
        }
    }

    /// Marks a shopping-list item urgent or not (the row's menu). Stock items have no urgency: 404.
    public func setUrgent(_ id: Item.ID, _ urgent: Bool, in scope: HouseholdScope, by memberId: Member.ID) throws {
        let time = stamp()
        try database.write(by: memberId, at: time) { db in
            var item = try Self.item(db, id, scope.householdId)
            let folder = try Self.folder(db, item.folderId, scope.householdId)
            guard folder.kind == .shopping else { throw InventoryError.notFound }
            guard item.urgent != urgent else { return }
            item.urgent = urgent
            item.version += 1
            item.updatedAt = time
            try item.update(db)
            try Self.record(db, item, "changed", "urgent", by: memberId, at: item.updatedAt)
        }
    }

    /// Gives an item a new picture (the item page's upload); the product memory learns it too.
    public func setPicture(_ id: Item.ID, _ picture: Picture?, in scope: HouseholdScope, by memberId: Member.ID) throws {
        let time = stamp()
        try database.write(by: memberId, at: time) { db in
            var item = try Self.item(db, id, scope.householdId)
            if try !Self.foreignPhotos(db, [picture], householdId: scope.householdId).isEmpty {
                throw InventoryError.validation(["picture": .pictureInvalid])
            }
            item.photo = picture?.photoKey
            item.illustration = picture?.illustrationSlug
            item.version += 1
            item.updatedAt = time
            try item.update(db)
            try Self.record(db, item, "changed", "picture", by: memberId, at: item.updatedAt)
            try Products.remember(db, item, at: item.updatedAt)
        }
    }

    /// "Buy again": a copy of a stock item on a shopping list (the stock item stays).
    @discardableResult
    public func buyAgain(_ id: Item.ID, onto shoppingFolderId: Folder.ID, in scope: HouseholdScope, by memberId: Member.ID) throws -> Item.ID {
        try buyAgain([id], onto: shoppingFolderId, in: scope, by: memberId)[0]
    }

    /// "Buy again" for several items at once, all or none: the copies' ids, in order.
    @discardableResult
    public func buyAgain(_ ids: [Item.ID], onto shoppingFolderId: Folder.ID, in scope: HouseholdScope, by memberId: Member.ID) throws -> [Item.ID] {
        let time = stamp()
        return try database.write(by: memberId, at: time) { db in
            let target = try Self.folder(db, shoppingFolderId, scope.householdId)
            guard target.kind == .shopping else { throw InventoryError.validation(["folder": .folderNotShopping]) }
            return try ids.map { id in
                let item = try Self.item(db, id, scope.householdId)
                var copy = Item.Draft(
                    householdId: scope.householdId, folderId: target.id, name: item.name, photo: item.photo, illustration: item.illustration,
                    quantity: item.quantity, unit: item.unit, kind: item.kind, note: item.note, barcode: item.barcode, createdAt: time, updatedAt: time)
                Self.fit(&copy, to: .shopping)
                let inserted = try copy.insertAndFetch(db, as: Item.self)
                try Self.record(db, inserted, "created", target.name, by: memberId, at: time)
                return inserted.id
            }
        }
    }

    /// Moves items to `folderId`, all or none; what the target kind lacks is dropped.
    public func move(_ ids: [Item.ID], to folderId: Folder.ID, in scope: HouseholdScope, by memberId: Member.ID) throws {
        let time = stamp()
        try database.write(by: memberId, at: time) { db in
            let target = try Self.folder(db, folderId, scope.householdId)
            for id in ids {
                var item = try Self.item(db, id, scope.householdId)
                guard item.folderId != folderId else { continue }
                let from = item.folderId
                Self.fit(&item.draft, to: target.kind)
                item.folderId = folderId
                item.version += 1
                item.updatedAt = time
                try item.update(db)
                try Self.record(db, item, "moved", from: from, to: folderId, by: memberId, at: time)
            }
        }
    }

    /// Keeps what both kinds share; drops what the target kind does not have.
    static func fit(_ item: inout Item.Draft, to kind: FolderKind) {
        for field in ItemField.allCases where !field.fits(kind) { field.drop(from: &item) }
        leaveBasket(&item, for: kind)
        switch kind {
        case .stock:
            if item.status == nil { item.status = .unopened }
        case .shopping:
            // Something used up is wanted again: one to buy, not none (the row's − / + changes it).
            if item.quantity == 0 { item.quantity = 1 }
        }
    }

    /// An item that goes to a stock list is no longer in anyone's basket (bought, moved, edited there).
    static func leaveBasket(_ item: inout Item.Draft, for kind: FolderKind) {
        guard kind == .stock else { return }
        item.inBasket = false
        item.inBasketBy = nil
    }

    /// Ticks a shopping-list row as in the basket, or unticks it, for every shopper to see; who
    /// ticked it is kept. The version goes up (an open page learns it from the change feed), but the
    /// history gets no line: a tick is the shopping of the moment. Stock items have no basket: 404.
    /// A tick sets a state, so one made on an old page merges by itself: whoever ticked last wins.
    public func setInBasket(_ id: Item.ID, _ inBasket: Bool, intent: IntentId? = nil, in scope: HouseholdScope, by memberId: Member.ID) throws {
        let time = stamp()
        try database.write(by: memberId, at: time, intent: intent) { db in
            var item = try Self.item(db, id, scope.householdId)
            guard try Self.folder(db, item.folderId, scope.householdId).kind == .shopping else { throw InventoryError.notFound }
            guard item.inBasket != inBasket else { return }
            item.inBasket = inBasket
            item.inBasketBy = inBasket ? memberId : nil
            item.version += 1
            item.updatedAt = time
            try item.update(db)
        }
    }

    /// How many rows of each of the household's shopping lists are in the basket (lists with none left out).
    public func basketCounts(in scope: HouseholdScope) throws -> [Folder.ID: Int] {
        try database.writer.read { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT folder_id, COUNT(*) AS count FROM item WHERE household_id = ? AND in_basket = 1 AND deleted_at IS NULL GROUP BY folder_id"),
                arguments: [scope.householdId])
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["folder_id"] as Folder.ID, $0["count"] as Int) })
        }
    }

    /// The rows of a shopping list in the basket, in the list's order: what "Put away" opens the
    /// Bought page for (at most 200, which its address can carry).
    public func inBasket(_ folderId: Folder.ID, in scope: HouseholdScope) throws -> [Item.ID] {
        try database.writer.read { db in
            try Item.ID.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT id FROM item WHERE household_id = ? AND folder_id = ? AND in_basket = 1 AND deleted_at IS NULL
                        ORDER BY urgent DESC, name COLLATE NOCASE, id LIMIT 200
                        """), arguments: [scope.householdId, folderId])
        }
    }

    /// Shopping → stock: the items are bought and now in `stockFolderId`, which the shopping list
    /// remembers for next time.
    public func markBought(_ ids: [Item.ID], into stockFolderId: Folder.ID, in scope: HouseholdScope, by memberId: Member.ID) throws {
        let time = stamp()
        try database.write(by: memberId, at: time) { db in
            let target = try Self.folder(db, stockFolderId, scope.householdId)
            guard target.kind == .stock else { throw InventoryError.validation(["folder": .folderNotStock]) }
            var sources = Set<Folder.ID>()
            for id in ids {
                var item = try Self.item(db, id, scope.householdId)
                let source = try Self.folder(db, item.folderId, scope.householdId)
                guard source.kind == .shopping else { throw InventoryError.notFound }
                sources.insert(source.id)
                try Self.putAway(db, &item, from: source, into: target, at: time, by: memberId)
            }
            try Self.rememberStockList(db, stockFolderId, for: sources)
        }
    }

    /// One bought item into its stock list, as an unopened item, with a line in its history.
    static func putAway(_ db: Database, _ item: inout Item, from source: Folder, into target: Folder, at time: Timestamp, by memberId: Member.ID) throws {
        Self.fit(&item.draft, to: .stock)
        item.status = .unopened
        item.folderId = target.id
        item.version += 1
        item.updatedAt = time
        try item.update(db)
        try Self.record(db, item, "bought", from: source.id, to: target.id, by: memberId, at: time)
        try ShelfLife.registered(db, item, at: time)
    }

    /// The shopping lists remember where their bought things went, for next time.
    static func rememberStockList(_ db: Database, _ stockFolderId: Folder.ID, for shoppingLists: Set<Folder.ID>) throws {
        for list in shoppingLists {
            try db.execute(sql: "UPDATE folder SET last_stock_folder_id = ? WHERE id = ?", arguments: [stockFolderId, list])
        }
    }

    /// For each shopping item, the row of the same name (folded as search folds it) and unit
    /// already in `stockFolderId`, which buying it can add to. Ids not on a shopping list are
    /// left out; an id of another household is not found.
    public func stockMatches(for ids: [Item.ID], within stockFolderId: Folder.ID, in scope: HouseholdScope) throws -> [Item.ID: Item] {
        try database.writer.read { db in
            let target = try Self.folder(db, stockFolderId, scope.householdId)
            guard target.kind == .stock else { return [:] }
            var matches: [Item.ID: Item] = [:]
            for id in ids {
                let item = try Self.item(db, id, scope.householdId)
                if let match = try Self.stockMatch(db, for: item, in: stockFolderId) { matches[id] = match }
            }
            return matches
        }
    }

    /// The oldest row in the stock list with the same folded name and the same unit.
    static func stockMatch(_ db: Database, for item: Item, in stockFolderId: Folder.ID) throws -> Item? {
        try sameRow(db, named: item.name, unit: item.unit, in: stockFolderId, except: item.id)
    }

    /// The oldest row of `folderId` called `name` (folded as search folds it) in `unit`.
    static func sameRow(_ db: Database, named name: String, unit: ItemUnit, in folderId: Folder.ID, except id: Item.ID? = nil) throws -> Item? {
        let folded = SearchText.fold(name.trimmingCharacters(in: .whitespacesAndNewlines))
        let candidates = try Item.fetchAll(
            db, sql: "SELECT * FROM item WHERE folder_id = ? AND unit = ? AND deleted_at IS NULL AND id IS NOT ? ORDER BY id",
            arguments: [folderId, unit, id])
        return candidates.first { SearchText.fold($0.name.trimmingCharacters(in: .whitespacesAndNewlines)) == folded }
    }

    /// "Add to the list" on a shopping list: an item by its name (and how many, in which unit).
    /// A row of the same name and unit already there takes it instead of a second row: two people
    /// who both add "Milk, 2" mean the same two bottles, so the row keeps the larger quantity.
    public func addToList(
        _ input: ItemInput, list listId: Folder.ID, intent: IntentId? = nil, in scope: HouseholdScope, by memberId: Member.ID, timeZone: TimeZone
    ) throws -> ListAddition {
        let folder = try self.folder(listId, in: scope)
        guard folder.kind == .shopping else { throw InventoryError.notFound }
        let value: ItemValues
        switch ItemValidation.check(input, for: .shopping, timeZone: timeZone) {
        case .success(let checked): value = checked
        case .failure(let problems): throw problems
        }
        let time = stamp()
        return try database.write(by: memberId, at: time, intent: intent) { db in
            if var row = try Self.sameRow(db, named: value.name, unit: value.unit, in: listId) {
                let before = row.quantity
                guard value.quantity > before else { return ListAddition(id: row.id, joined: before, quantity: before) }
                row.quantity = value.quantity
                row.version += 1
                row.updatedAt = time
                try row.update(db)
                try Self.record(db, row, "quantity", "\(Quantity.text(before)) → \(Quantity.text(row.quantity))", by: memberId, at: time)
                return ListAddition(id: row.id, joined: before, quantity: row.quantity)
            }
            var draft = Item.Draft(householdId: scope.householdId, folderId: listId, name: value.name, createdAt: time, updatedAt: time)
            Self.apply(value, to: &draft)
            let item = try draft.insertAndFetch(db, as: Item.self)
            try Self.record(db, item, "created", folder.name, by: memberId, at: time)
            try Products.remember(db, item, at: time)
            return ListAddition(id: item.id, joined: nil, quantity: item.quantity)
        }
    }

    /// Shopping → stock with what the person typed on the "Bought" page: each item's quantity and
    /// due date, and whether it joins a row of the same name and unit already in the stock list.
    /// All or nothing; a bad quantity or date comes back as `quantity_<id>` / `due_<id>`.
    ///
    /// Joining adds the quantities, keeps the earlier of the two due dates (the merged row then
    /// warns about the oldest part of it before that part goes off) and removes the shopping row.
    /// `intent`: the id a phone gave it, when it was made offline (see `IntentId`). Returns, for
    /// each line in order, the stock row it ended in (the joined row, or the item itself).
    @discardableResult
    public func buy(
        _ lines: [BoughtInput], into stockFolderId: Folder.ID, intent: IntentId? = nil, in scope: HouseholdScope, by memberId: Member.ID
    ) throws -> [Item.ID] {
        var checked: [(BoughtInput, Double, CalendarDay?)] = []
        var errors: [String: FieldProblem] = [:]
        for line in lines {
            switch line.check() {
            case .success(let values): checked.append((line, values.quantity, values.due))
            case .failure(let problems): for (field, key) in problems.fields { errors["\(field)_\(line.id)"] = key }
            }
        }
        if !errors.isEmpty { throw InventoryError.validation(errors) }
        let time = stamp()
        return try database.write(by: memberId, at: time, intent: intent) { db in
            let target = try Self.folder(db, stockFolderId, scope.householdId)
            guard target.kind == .stock else { throw InventoryError.validation(["folder": .folderNotStock]) }
            var sources = Set<Folder.ID>()
            var rows: [Item.ID] = []
            for (line, quantity, due) in checked {
                var item = try Self.item(db, line.id, scope.householdId)
                let source = try Self.folder(db, item.folderId, scope.householdId)
                guard source.kind == .shopping else { throw InventoryError.notFound }
                sources.insert(source.id)
                if line.addToExisting, var existing = try Self.stockMatch(db, for: item, in: stockFolderId) {
                    let before = existing.quantity
                    existing.quantity = min(Quantity.maximum, ((existing.quantity + quantity) * 1000).rounded() / 1000)
                    if let due, existing.due.map({ due < $0 }) ?? true { existing.due = due }
                    existing.version += 1
                    existing.updatedAt = time
                    try existing.update(db)
                    try Self.record(
                        db, existing, "bought", from: source.id, to: target.id,
                        detail: "\(Quantity.text(before)) → \(Quantity.text(existing.quantity))", by: memberId, at: time)
                    // What was bought is a sample of the product, though no row of its own keeps it.
                    var purchase = item
                    (purchase.folderId, purchase.due) = (target.id, due)
                    try ShelfLife.registered(db, purchase, at: time, joining: true)
                    _ = try item.delete(db)
                    rows.append(existing.id)
                    continue
                }
                item.quantity = quantity
                item.due = due
                try Self.putAway(db, &item, from: source, into: target, at: time, by: memberId)
                rows.append(item.id)
            }
            try Self.rememberStockList(db, stockFolderId, for: sources)
            return rows
        }
    }

    // MARK: - Trash

    /// To the trash, all or none; they can be restored for 30 days.
    public func trash(_ ids: [Item.ID], in scope: HouseholdScope, by memberId: Member.ID) throws {
        let time = stamp()
        try database.write(by: memberId, at: time) { db in
            for id in ids {
                var item = try Self.item(db, id, scope.householdId)
                item.deletedAt = time
                item.version += 1
                try item.update(db)
                try Self.record(db, item, "deleted", by: memberId, at: time)
            }
        }
    }

    /// Back from the trash, with their folder if it was deleted too.
    public func restore(_ ids: [Item.ID], in scope: HouseholdScope, by memberId: Member.ID) throws {
        let time = stamp()
        try database.write(by: memberId, at: time) { db in
            for id in ids {
                var item = try Self.item(db, id, scope.householdId, deleted: true)
                item.deletedAt = nil
                item.version += 1
                try item.update(db)
                try db.execute(sql: "UPDATE folder SET deleted_at = NULL WHERE id = ?", arguments: [item.folderId])
                // A reminder whose time passed while the item was in the trash is not sent late.
                try db.execute(sql: "UPDATE item SET reminder_sent_for = remind_at WHERE id = ? AND remind_at <= ?", arguments: [id, time])
                try Self.record(db, item, "restored", by: memberId, at: time)
            }
        }
    }

    /// Deletes items in the trash for good.
    public func purge(_ ids: [Item.ID], in scope: HouseholdScope) throws {
        try database.write(by: nil, at: stamp()) { db in
            for id in ids {
                let item = try Self.item(db, id, scope.householdId, deleted: true)
                _ = try item.delete(db)
            }
            try Self.dropEmptyDeletedFolders(db, scope.householdId)
        }
    }

    /// Items more than 30 days in the trash leave it; returns how many.
    @discardableResult
    public func purgeExpiredTrash(in scope: HouseholdScope) throws -> Int {
        let now = stamp()
        let limit = now.adding(seconds: -Int64(Self.trashDays) * 86400)
        return try database.write(by: nil, at: now) { db in
            try db.execute(sql: "DELETE FROM item WHERE household_id = ? AND deleted_at IS NOT NULL AND deleted_at < ?", arguments: [scope.householdId, limit])
            let purged = db.changesCount
            try Self.dropEmptyDeletedFolders(db, scope.householdId)
            return purged
        }
    }

    static func dropEmptyDeletedFolders(_ db: Database, _ householdId: Household.ID) throws {
        try db.execute(
            sql: """
                DELETE FROM folder WHERE household_id = ? AND deleted_at IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM item WHERE item.folder_id = folder.id)
                """, arguments: [householdId])
    }

    public func trashEntries(in scope: HouseholdScope) throws -> [TrashEntry] {
        try database.writer.read { db in
            try Item.fetchList(
                db.cachedStatement(
                    sql: """
                        SELECT item.*, folder.name AS folder_name, folder.starter AS folder_starter FROM item JOIN folder ON folder.id = item.folder_id
                        WHERE item.household_id = ? AND item.deleted_at IS NOT NULL ORDER BY item.deleted_at DESC, item.id
                        """), arguments: [scope.householdId]
            ) { item, row in TrashEntry(item: item, folderName: row["folder_name"], folderStarter: row["folder_starter"]) }
        }
    }
}

/// One line of the "Bought" page as typed: how many, until when, and whether to add it to a
/// row of the same name and unit already in the stock list.
public struct BoughtInput: Sendable, Equatable {
    public var id: Item.ID
    public var quantity: String
    public var due: String
    public var addToExisting: Bool

    public init(id: Item.ID, quantity: String, due: String = "", addToExisting: Bool = true) {
        self.id = id
        self.quantity = quantity
        self.due = due
        self.addToExisting = addToExisting
    }

    /// The quantity (a number from 0 to `Quantity.maximum`, full-width digits allowed) and the
    /// due date (empty, or a calendar date), or the problems keyed `quantity` / `due`.
    public func check() -> Result<(quantity: Double, due: CalendarDay?), FieldErrors> {
        var errors: [String: FieldProblem] = [:]
        var value = 1.0
        let text = quantity.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty {
            if let number = Double(text), number.isFinite, number >= 0, number <= Quantity.maximum {
                value = (number * 1000).rounded() / 1000
            } else if let number = Double(text), number.isFinite, number > Quantity.maximum {
                errors["quantity"] = .quantityTooLarge
            } else {
                errors["quantity"] = .quantityInvalid
            }
        }
        let dueText = due.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces)
        let day = CalendarDay(dueText)
        if !dueText.isEmpty, day == nil { errors["due"] = .dueInvalid }
        guard errors.isEmpty else { return .failure(FieldErrors(errors)) }
        return .success((value, day))
    }
}

/// Quantities shown without needless zeros: 1, 0.5, 1.25.
public enum Quantity {
    /// The largest quantity an item may have, typed or reached with +.
    public static let maximum = 1_000_000.0

    /// Three decimals, as item quantities are kept.
    public static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    public static func text(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        // Thousandths in whole numbers (String(format:) costs a page of shortfalls more than the
        // rest of their text); a value about halfway between two thousandths is left to printf,
        // which rounds the exact binary value (0.0045 is a hair under, and prints 0.004).
        let scaled = abs(value) * 1000
        let thousandths = scaled.rounded()
        if thousandths < 1e15, abs(abs(scaled - thousandths) - 0.5) > 1e-6 {
            let whole = Int64(thousandths) / 1000, fraction = Int64(thousandths) % 1000
            var text = (value < 0 && thousandths > 0 ? "-" : "") + String(whole)
            if fraction > 0 {
                var digits = String(fraction)
                digits = String(repeating: "0", count: 3 - digits.count) + digits
                while digits.hasSuffix("0") { digits.removeLast() }
                text += "." + digits
            }
            return text
        }
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        // 1.0004 rounds to "1.000": "1", not "1.".
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
