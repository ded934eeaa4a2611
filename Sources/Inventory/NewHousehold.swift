import GRDB

/// A household being made whole by an import (`Accounts.createHousehold(name:language:filling:)`):
/// what the import adds to it, each inside the one transaction that creates the household, so
/// a failure anywhere leaves nothing behind. Valid only inside that call.
public struct NewHousehold {
    let db: Database
    public let id: Household.ID

    /// The new household, for the store methods that read or write it.
    public var scope: HouseholdScope { HouseholdScope(id) }

    /// The row of a photo whose files `store` wrote already.
    public func addPhoto(key: String, format: String, writtenBy store: PhotoStore) throws {
        try store.insertRow(db, key: key, format: format, householdId: id)
    }

    /// Inserts the folder: the stored folder, with its id.
    public func add(_ folder: Folder.Draft) throws -> Folder { try folder.insertAndFetch(db, as: Folder.self) }

    /// Inserts the item: the stored item, with its id (its history is the caller's: `addHistoryLine`).
    public func add(_ item: Item.Draft) throws -> Item { try item.insertAndFetch(db, as: Item.self) }

    /// One line of an item's history.
    public func addHistoryLine(itemId: Item.ID, memberId: Member.ID?, kind: String, detail: String, at time: Timestamp) throws {
        try ItemHistory.append(db, householdId: id, itemId: itemId, memberId: memberId, kind: kind, detail: detail, at: time)
    }

    /// A remembered product (`barcode` unique in the household).
    public func addProduct(
        barcode: String, name: String, photo: String?, kind: ItemKind, unit: ItemUnit, folderId: Folder.ID?, updatedAt: Timestamp
    ) throws {
        try Self.insertProduct(
            db, householdId: id, barcode: barcode, name: name, photo: photo, illustration: nil, kind: kind.rawValue, unit: unit.rawValue, folderId: folderId,
            updatedAt: updatedAt)
    }

    /// The household's products' ids by barcode.
    public func productIdsByBarcode() throws -> [String: Product.ID] {
        var productIds: [String: Product.ID] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, barcode FROM product WHERE household_id = ?", arguments: [id]) {
            productIds[row["barcode"]] = row["id"]
        }
        return productIds
    }

    /// Inserts the recipe: the stored recipe, with its id.
    public func add(_ recipe: Recipe.Draft) throws -> Recipe { try recipe.insertAndFetch(db, as: Recipe.self) }

    /// Inserts the ingredient.
    public func add(_ ingredient: RecipeIngredient.Draft) throws { try ingredient.insert(db) }

    /// The one way a product row is written whole (an import's): inside the caller's transaction.
    static func insertProduct(
        _ db: Database, householdId: Household.ID, barcode: String, name: String, photo: String?, illustration: String?, kind: String, unit: String,
        folderId: Folder.ID?, updatedAt: Timestamp, shelfLifeDays: Int? = nil
    ) throws {
        try db.execute(
            sql: """
                INSERT INTO product (household_id, barcode, name, photo, illustration, kind, unit, folder_id, updated_at, shelf_life_days)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [householdId, barcode, name, photo, illustration, kind, unit, folderId, updatedAt, shelfLifeDays])
    }
}
