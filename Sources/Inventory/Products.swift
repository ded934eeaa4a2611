import Foundation
import GRDB
import Tagged

/// What a household has learned about one barcode.
public struct Product: Sendable, Equatable, Identifiable {
    public typealias ID = Tagged<Product, Int64>

    public var id: ID
    public var barcode: String
    public var name: String
    public var picture: Picture?
    public var kind: ItemKind
    public var unit: ItemUnit
    /// The folder items with this barcode were last saved to (nil once that folder is gone).
    public var folderId: Folder.ID?
    public var updatedAt: Timestamp
    /// How many days it keeps, as set by hand on its page; nil while the household's
    /// registrations teach it (`ShelfLife`).
    public var shelfLifeDays: Int?

    /// A code the enums do not know fails the read, as an item's does.
    init(row: Row) throws {
        id = row["id"]
        barcode = row["barcode"]
        name = row["name"]
        let photo: String? = row["photo"]
        let illustration: String? = row["illustration"]
        picture = photo.map(Picture.photo) ?? illustration.map(Picture.illustration)
        guard let kind = ItemKind(rawValue: row["kind"]), let unit = ItemUnit(rawValue: row["unit"]) else {
            throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "product \(id) has an unknown kind or unit")
        }
        self.kind = kind
        self.unit = unit
        folderId = row["folder_id"]
        updatedAt = try row.decode(forColumn: "updated_at")
        shelfLifeDays = row["shelf_life_days"]
    }
}

/// Product memory: saving an item with a barcode teaches the household that barcode's name,
/// picture, kind, unit and folder; the next scan fills them in.
public struct Products: Sendable {
    let database: AppDatabase
    let clock: WallClock

    public init(database: AppDatabase, clock: WallClock = .system) {
        self.database = database
        self.clock = clock
    }

    /// Called inside the transaction that saves `item`.
    static func remember(_ db: Database, _ item: Item, at time: Timestamp) throws {
        guard let barcode = item.barcode else { return }
        try db.execute(
            sql: """
                INSERT INTO product (household_id, barcode, name, photo, illustration, kind, unit, folder_id, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (household_id, barcode) DO UPDATE SET
                    name = excluded.name, photo = excluded.photo, illustration = excluded.illustration, kind = excluded.kind,
                    unit = excluded.unit, folder_id = COALESCE(excluded.folder_id, product.folder_id), updated_at = excluded.updated_at
                """,
            arguments: [item.householdId, barcode, item.name, item.photo, item.illustration, item.kind, item.unit, try stockFolder(db, item.folderId), time])
    }

    /// The usual folder is where the product is kept: a stock list, never the shopping list it was bought from.
    static func stockFolder(_ db: Database, _ folderId: Folder.ID) throws -> Folder.ID? {
        try String.fetchOne(db, sql: "SELECT kind FROM folder WHERE id = ?", arguments: [folderId]) == FolderKind.stock.rawValue ? folderId : nil
    }

    public func product(barcode: String, in scope: HouseholdScope) throws -> Product? {
        try database.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM product WHERE household_id = ? AND barcode = ?", arguments: [scope.householdId, barcode])
                .map(Product.init(row:))
        }
    }

    public func product(_ id: Product.ID, in scope: HouseholdScope) throws -> Product {
        let found = try database.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM product WHERE household_id = ? AND id = ?", arguments: [scope.householdId, id]).map(Product.init(row:))
        }
        guard let found else { throw InventoryError.notFound }
        return found
    }

    /// Fills draft `index` of a batch from what the household learned about its barcode; false when
    /// nothing is known. A draft alone in its batch also takes the product's usual folder: a stock
    /// list still in use replaces the stock list being added to, never the shopping list the person
    /// is adding to.
    public func fill(_ drafts: inout [ItemInput], at index: Int, folder: inout Folder, in scope: HouseholdScope) throws -> Bool {
        let barcode = drafts[index].barcode
        let known = try database.writer.read { db -> (Product, usual: Folder?)? in
            guard
                let product = try Row.fetchOne(
                    db, sql: "SELECT * FROM product WHERE household_id = ? AND barcode = ?", arguments: [scope.householdId, barcode]
                )
                .map(Product.init(row:))
            else { return nil }
            let usual = try product.folderId.flatMap { id in
                try Folder.fetchOne(
                    db, sql: "SELECT * FROM folder WHERE id = ? AND household_id = ? AND deleted_at IS NULL", arguments: [id, scope.householdId])
            }
            return (product, usual)
        }
        guard let (product, usual) = known else { return false }
        drafts[index].fill(from: product)
        let alone = drafts.indices.allSatisfy { $0 == index || drafts[$0].isBlank }
        if alone, folder.kind == .stock, let usual, usual.kind == .stock { folder = usual }
        // The due date it usually gets in that stock list, unless one is typed already.
        if folder.kind == .stock, drafts[index].due.trimmingCharacters(in: .whitespaces).isEmpty {
            let stockList = folder.id
            let due = try database.writer.read { db in
                try ShelfLife.usualDue(
                    db, householdId: scope.householdId, key: ShelfLife.key(barcode: barcode), folderId: stockList, at: Timestamp(clock.now()))
            }
            if let due { drafts[index].due = due.description }
        }
        return true
    }

    /// Everything learned, by name.
    public func all(in scope: HouseholdScope) throws -> [Product] {
        try database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM product WHERE household_id = ? ORDER BY name COLLATE NOCASE, barcode", arguments: [scope.householdId])
                .map(Product.init(row:))
        }
    }

    /// How many days each barcode usually keeps (`ShelfLife`, over every stock list); barcodes with
    /// nothing learned are left out.
    public func usualShelfLives(in scope: HouseholdScope) throws -> [String: Int] {
        let prefix = ShelfLife.key(barcode: "")
        return try database.writer.read { db in
            let usual = try ShelfLife.usualDays(db, householdId: scope.householdId, folderId: nil)
            return Dictionary(uniqueKeysWithValues: usual.compactMap { key, days in key.hasPrefix(prefix) ? (String(key.dropFirst(prefix.count)), days) : nil })
        }
    }

    /// What the household's registrations taught of how long `product` keeps (any stock list),
    /// whatever was set by hand; nil when nothing was learned.
    public func learnedShelfLife(of product: Product, in scope: HouseholdScope) throws -> Int? {
        try database.writer.read { db in
            try ShelfLife.learnedDays(db, householdId: scope.householdId, key: ShelfLife.key(barcode: product.barcode), folderId: nil)
        }
    }

    /// Corrects what was learned. Errors are message keys by field name. `shelfLife`: the days it
    /// keeps as typed (full-width digits too), which stand for what registrations teach; empty
    /// leaves it to them again.
    public func update(
        _ id: Product.ID, name: String, kind: String, unit: String, folderId: Folder.ID?, picture: Picture?, shelfLife: String = "",
        in scope: HouseholdScope
    ) throws {
        var errors: [String: FieldProblem] = [:]
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { errors["name"] = .itemNameRequired } else if name.storedLength > 100 { errors["name"] = .nameTooLong }
        let kind = ItemKind(rawValue: kind)
        if kind == nil { errors["kind"] = .kindInvalid }
        let unit = ItemUnit(rawValue: unit)
        if unit == nil { errors["unit"] = .unitInvalid }
        let days = TypedShelfLife(shelfLife)
        if days == nil { errors["shelf_life"] = .shelfLifeInvalid }
        guard errors.isEmpty, let kind, let unit, let days else { throw InventoryError.validation(errors) }
        let time = Timestamp(clock.now())
        try database.write(by: nil, at: time) { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM product WHERE id = ? AND household_id = ?", arguments: [id, scope.householdId]) == true else {
                throw InventoryError.notFound
            }
            if let folderId { _ = try Items.folder(db, folderId, scope.householdId) }
            if let key = picture?.photoKey, try !PhotoStore.belongs(db, key: key, householdId: scope.householdId) {
                throw InventoryError.validation(["picture": .pictureInvalid])
            }
            try db.execute(
                sql: """
                    UPDATE product SET name = ?, kind = ?, unit = ?, folder_id = ?, photo = ?, illustration = ?, shelf_life_days = ?, updated_at = ?
                    WHERE id = ? AND household_id = ?
                    """,
                arguments: [
                    name, kind, unit, folderId, picture?.photoKey, picture?.illustrationSlug, days.stored,
                    time, id, scope.householdId,
                ])
        }
    }

    /// A shelf life as typed on a product page: empty leaves it to what registrations teach.
    enum TypedShelfLife {
        case learned
        case days(Int)

        /// Whole days within `ShelfLife.plausible` (full-width digits read); nil when refused.
        init?(_ text: String) {
            let text = text.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces)
            if text.isEmpty {
                self = .learned
                return
            }
            guard text.utf8.count <= 5, let days = Int(text), ShelfLife.plausible.contains(days) else { return nil }
            self = .days(days)
        }

        /// What `product.shelf_life_days` holds.
        var stored: Int? {
            if case .days(let days) = self { return days }
            return nil
        }
    }

    /// Forgets a barcode; items keep their own values.
    public func forget(_ id: Product.ID, in scope: HouseholdScope) throws {
        try database.write(by: nil, at: Timestamp(clock.now())) { db in
            let barcode = try String.fetchOne(db, sql: "SELECT barcode FROM product WHERE id = ? AND household_id = ?", arguments: [id, scope.householdId])
            guard let barcode else { throw InventoryError.notFound }
            try db.execute(sql: "DELETE FROM product WHERE id = ?", arguments: [id])
            // Its shelf life too: what was learned of the barcode is forgotten.
            try ShelfLife.forget(db, householdId: scope.householdId, key: ShelfLife.key(barcode: barcode))
        }
    }
}

extension ItemInput {
    /// Fills a draft from what the household learned about its barcode.
    public mutating func fill(from product: Product) {
        name = product.name
        kind = product.kind.rawValue
        unit = product.unit.rawValue
        picture = product.picture?.formValue ?? picture
    }
}
