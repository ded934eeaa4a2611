import Foundation
import GRDB

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
    @discardableResult
    public func adjustQuantity(_ id: Int64, by delta: Double, householdId: Int64, by memberId: Int64) throws -> Double {
        try database.writer.write { db in
            // Another household's item is not found, whatever the step.
            var item = try Self.item(db, id, householdId)
            guard delta.isFinite, abs(delta) <= Quantity.maximum else { throw InventoryError.validation(["delta": "quantity_step_invalid"]) }
            let before = item.quantity
            let after = max(0, ((item.quantity + delta) * 1000).rounded() / 1000)
            guard after <= Quantity.maximum else { throw InventoryError.validation(["delta": "quantity_too_large"]) }
            item.quantity = after
            guard item.quantity != before else { return before }
            item.version += 1
            item.updatedAt = stamp()
            try item.update(db)
            try Self.record(db, item, "quantity", "\(Quantity.text(before)) → \(Quantity.text(item.quantity))", by: memberId, at: item.updatedAt)
            return item.quantity
        }
    }

    public func markOpened(_ id: Int64, householdId: Int64, by memberId: Int64) throws {
        try database.writer.write { db in
            var item = try Self.item(db, id, householdId)
            guard item.status != "opened" else { return }
            let folder = try Self.folder(db, item.folderId, householdId)
            guard folder.kind == .stock else { throw InventoryError.notFound }
            item.status = "opened"
            item.version += 1
            item.updatedAt = stamp()
            try item.update(db)
            try Self.record(db, item, "opened", by: memberId, at: item.updatedAt)
        }
    }

    /// Gives an item a new picture (the item page's upload); the product memory learns it too.
    public func setPicture(_ id: Int64, _ picture: Picture?, householdId: Int64, by memberId: Int64) throws {
        try database.writer.write { db in
            var item = try Self.item(db, id, householdId)
            if try !Self.foreignPhotos(db, [picture], householdId: householdId).isEmpty {
                throw InventoryError.validation(["picture": "picture_invalid"])
            }
            item.photo = picture?.photoKey
            item.illustration = picture?.illustrationSlug
            item.version += 1
            item.updatedAt = stamp()
            try item.update(db)
            try Self.record(db, item, "changed", "picture", by: memberId, at: item.updatedAt)
            try Products.remember(db, item, at: item.updatedAt)
        }
    }

    /// "Buy again": a copy of a stock item on a shopping list (the stock item stays).
    @discardableResult
    public func buyAgain(_ id: Int64, onto shoppingFolderId: Int64, householdId: Int64, by memberId: Int64) throws -> Int64 {
        try database.writer.write { db in
            let item = try Self.item(db, id, householdId)
            let target = try Self.folder(db, shoppingFolderId, householdId)
            guard target.kind == .shopping else { throw InventoryError.validation(["folder": "folder_not_shopping"]) }
            let time = stamp()
            var copy = Item(
                householdId: householdId, folderId: target.id!, name: item.name, photo: item.photo, illustration: item.illustration, quantity: item.quantity,
                unit: item.unit, kind: item.kind, note: item.note, barcode: item.barcode, createdAt: time, updatedAt: time)
            try copy.insert(db)
            try Self.record(db, copy, "created", target.name, by: memberId, at: time)
            return copy.id!
        }
    }

    /// Moves items to `folderId`, all or none; what the target kind lacks is dropped.
    public func move(_ ids: [Int64], to folderId: Int64, householdId: Int64, by memberId: Int64) throws {
        try database.writer.write { db in
            let target = try Self.folder(db, folderId, householdId)
            let time = stamp()
            for id in ids {
                var item = try Self.item(db, id, householdId)
                guard item.folderId != folderId else { continue }
                let from = try String.fetchOne(db, sql: "SELECT name FROM folder WHERE id = ?", arguments: [item.folderId]) ?? ""
                Self.fit(&item, to: target.kind)
                item.folderId = folderId
                item.version += 1
                item.updatedAt = time
                try item.update(db)
                try Self.record(db, item, "moved", "\(from) → \(target.name)", by: memberId, at: time)
            }
        }
    }

    /// Keeps what both kinds share; drops what the target kind does not have.
    static func fit(_ item: inout Item, to kind: FolderKind) {
        switch kind {
        case .stock:
            item.urgent = false
            if item.status == nil { item.status = "unopened" }
        case .shopping:
            item.due = nil
            item.remindAt = nil
            item.status = nil
        }
    }

    /// Shopping → stock: the items are bought and now in `stockFolderId`, which the shopping list
    /// remembers for next time.
    public func markBought(_ ids: [Int64], into stockFolderId: Int64, householdId: Int64, by memberId: Int64) throws {
        try database.writer.write { db in
            let target = try Self.folder(db, stockFolderId, householdId)
            guard target.kind == .stock else { throw InventoryError.validation(["folder": "folder_not_stock"]) }
            let time = stamp()
            var sources = Set<Int64>()
            for id in ids {
                var item = try Self.item(db, id, householdId)
                let source = try Self.folder(db, item.folderId, householdId)
                guard source.kind == .shopping else { throw InventoryError.notFound }
                sources.insert(source.id!)
                Self.fit(&item, to: .stock)
                item.status = "unopened"
                item.folderId = stockFolderId
                item.version += 1
                item.updatedAt = time
                try item.update(db)
                try Self.record(db, item, "bought", "\(source.name) → \(target.name)", by: memberId, at: time)
            }
            for source in sources {
                try db.execute(sql: "UPDATE folder SET last_stock_folder_id = ? WHERE id = ?", arguments: [stockFolderId, source])
            }
        }
    }

    // MARK: - Trash

    /// To the trash, all or none; they can be restored for 30 days.
    public func trash(_ ids: [Int64], householdId: Int64, by memberId: Int64) throws {
        try database.writer.write { db in
            let time = stamp()
            for id in ids {
                var item = try Self.item(db, id, householdId)
                item.deletedAt = time
                item.version += 1
                try item.update(db)
                try Self.record(db, item, "deleted", by: memberId, at: time)
            }
        }
    }

    /// Back from the trash, with their folder if it was deleted too.
    public func restore(_ ids: [Int64], householdId: Int64, by memberId: Int64) throws {
        try database.writer.write { db in
            let time = stamp()
            for id in ids {
                var item = try Self.item(db, id, householdId, deleted: true)
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
    public func purge(_ ids: [Int64], householdId: Int64) throws {
        try database.writer.write { db in
            for id in ids {
                let item = try Self.item(db, id, householdId, deleted: true)
                _ = try item.delete(db)
            }
            try Self.dropEmptyDeletedFolders(db, householdId)
        }
    }

    /// Items more than 30 days in the trash leave it; returns how many.
    @discardableResult
    public func purgeExpiredTrash(householdId: Int64) throws -> Int {
        let limit = Timestamp.string(from: clock.now().addingTimeInterval(-Double(Self.trashDays) * 86400))
        return try database.writer.write { db in
            try db.execute(sql: "DELETE FROM item WHERE household_id = ? AND deleted_at IS NOT NULL AND deleted_at < ?", arguments: [householdId, limit])
            let purged = db.changesCount
            try Self.dropEmptyDeletedFolders(db, householdId)
            return purged
        }
    }

    static func dropEmptyDeletedFolders(_ db: Database, _ householdId: Int64) throws {
        try db.execute(
            sql: """
                DELETE FROM folder WHERE household_id = ? AND deleted_at IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM item WHERE item.folder_id = folder.id)
                """, arguments: [householdId])
    }

    public func trashEntries(householdId: Int64) throws -> [TrashEntry] {
        try database.writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT item.*, folder.name AS folder_name, folder.starter AS folder_starter FROM item JOIN folder ON folder.id = item.folder_id
                    WHERE item.household_id = ? AND item.deleted_at IS NOT NULL ORDER BY item.deleted_at DESC, item.id
                    """, arguments: [householdId]
            ).map { TrashEntry(item: try Item(row: $0), folderName: $0["folder_name"], folderStarter: $0["folder_starter"]) }
        }
    }
}

/// Quantities shown without needless zeros: 1, 0.5, 1.25.
public enum Quantity {
    /// The largest quantity an item may have, typed or reached with +.
    public static let maximum = 1_000_000.0

    public static func text(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        // 1.0004 rounds to "1.000": "1", not "1.".
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
