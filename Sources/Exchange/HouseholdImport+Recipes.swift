import GRDB
import Inventory

/// The recipe parts of an import (format version 2; absent from version 1 files).
extension HouseholdImport {
    static func checkRecipeReferences(_ document: HouseholdDocument) throws {
        let recipes = document.recipes ?? []
        let cooks = document.cooks ?? []
        let folders = Set(document.folders.map(\.id))
        let stockFolders = Set(document.folders.filter { $0.kind == FolderKind.stock.rawValue }.map(\.id))
        let items = Set(document.items.map(\.id))
        let members = Set(document.members.map(\.id))
        let photos = Set(document.photos.map(\.key))
        let barcodes = Set(document.products.map(\.barcode))
        let recipeIds = Set(recipes.map(\.id))
        let cookIds = Set(cooks.map(\.id))
        func check(_ condition: Bool, _ problem: String) throws { if !condition { throw HouseholdImportError.inconsistent(problem) } }
        try check(recipeIds.count == recipes.count, "two recipes share an id")
        try check(cookIds.count == cooks.count, "two cooks share an id")
        try check(recipes.allSatisfy { $0.photo.map(photos.contains) ?? true }, "a recipe refers to a photo that is not in the file")
        try check(recipes.allSatisfy { $0.illustration.map(Illustrations.slugs.contains) ?? true }, "a picture names an illustration this server does not have")
        try check(recipes.allSatisfy { $0.produce?.folderId.map(stockFolders.contains) ?? true }, "a recipe makes an item in a folder that is not in the file")
        try check(
            recipes.allSatisfy { $0.ingredients.allSatisfy { $0.productBarcode.map(barcodes.contains) ?? true } },
            "an ingredient refers to a product that is not in the file")
        try check(
            recipes.allSatisfy { $0.ingredients.allSatisfy { $0.unit.map { IngredientUnit(rawValue: $0) != nil } ?? true } },
            "an ingredient has an unknown unit")
        try check(cooks.allSatisfy { $0.recipeId.map(recipeIds.contains) ?? true }, "a cook refers to a recipe that is not in the file")
        try check(cooks.allSatisfy { $0.memberId.map(members.contains) ?? true }, "a cook refers to a member who is not in the file")
        try check(cooks.allSatisfy { $0.producedItemId.map(items.contains) ?? true }, "a cook refers to an item that is not in the file")
        try check(cooks.allSatisfy { $0.takes.allSatisfy { items.contains($0.itemId) } }, "a cook refers to an item that is not in the file")
        try check(
            cooks.allSatisfy { $0.takes.allSatisfy { $0.usedUp.map { CookTake.UsedUp(rawValue: $0) != nil } ?? true } },
            "a cook has an unknown kind of used-up item")
        try check(
            cooks.allSatisfy { $0.takes.allSatisfy { $0.fromFolderId.map(folders.contains) ?? true } }, "a cook refers to a folder that is not in the file")
        try check(document.itemEvents.allSatisfy { $0.cookId.map(cookIds.contains) ?? true }, "a history line refers to a cook that is not in the file")
    }

    /// Inserts the recipes and cooks with new ids; returns the new cook ids (for the history lines).
    static func insertRecipes(
        _ db: Database, _ document: HouseholdDocument, householdId: Int64, ids: ImportedIds
    ) throws -> [Int64: Int64] {
        var productIds: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, barcode FROM product WHERE household_id = ?", arguments: [householdId]) {
            productIds[row["barcode"]] = row["id"]
        }
        var recipeIds: [Int64: Int64] = [:]
        for part in document.recipes ?? [] {
            var produce = part.produce
            if let folder = part.produce?.folderId { produce?.folderId = ids.folders[folder] }
            var recipe = Recipe(
                householdId: householdId, name: part.name, photo: part.photo.flatMap { ids.photos[$0] }, illustration: part.illustration,
                servings: part.servings, steps: part.steps, sourceUrl: part.sourceUrl, produce: produce, version: part.version,
                createdAt: part.createdAt, updatedAt: part.updatedAt, deletedAt: part.deletedAt)
            try recipe.insert(db)
            recipeIds[part.id] = recipe.id!
            for (position, ingredient) in part.ingredients.enumerated() {
                var row = RecipeIngredient(
                    householdId: householdId, recipeId: recipe.id!, position: position, name: ingredient.name, amount: ingredient.amount,
                    unit: ingredient.unit, note: ingredient.note, productId: ingredient.productBarcode.flatMap { productIds[$0] })
                try row.insert(db)
            }
            for tag in Set(part.tags) { try RecipeTag(recipeId: recipe.id!, householdId: householdId, tag: tag).insert(db) }
        }
        var cookIds: [Int64: Int64] = [:]
        for part in document.cooks ?? [] {
            var cook = Cook(
                householdId: householdId, recipeId: part.recipeId.flatMap { recipeIds[$0] }, recipeName: part.recipeName,
                memberId: part.memberId.flatMap { ids.members[$0] }, servings: part.servings, producedItemId: part.producedItemId.flatMap { ids.items[$0] },
                cookedAt: part.cookedAt, undoneAt: part.undoneAt)
            try cook.insert(db)
            cookIds[part.id] = cook.id!
            for take in part.takes {
                var row = CookTake(
                    cookId: cook.id!, itemId: ids.items[take.itemId]!, ingredientName: take.ingredientName, amount: take.amount,
                    usedUp: take.usedUp.flatMap(CookTake.UsedUp.init(rawValue:)), fromFolderId: take.fromFolderId.flatMap { ids.folders[$0] }, due: take.due,
                    remindAt: take.remindAt, status: take.status)
                try row.insert(db)
            }
        }
        let usedUpFolder = document.household.usedUpFolderId.flatMap { ids.folders[$0] }
        try db.execute(
            sql: "UPDATE household SET used_up = ?, used_up_folder_id = ? WHERE id = ?",
            arguments: [document.household.usedUp ?? "trash", usedUpFolder, householdId])
        return cookIds
    }

    /// Old id → new id of what the recipe parts refer to.
    struct ImportedIds {
        var members: [Int64: Int64] = [:]
        var folders: [Int64: Int64] = [:]
        var items: [Int64: Int64] = [:]
        var photos: [String: String] = [:]
    }
}
