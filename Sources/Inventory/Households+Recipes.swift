import GRDB

/// The recipe parts of a household document (format version 2): recipes with their ingredients
/// and tags, and the cooks with what each took.
extension Households {
    static func readRecipes(_ db: Database, householdId: Household.ID) throws -> [HouseholdDocument.RecipePart] {
        let id: StatementArguments = [householdId]
        var tags: [Int64: [String]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT recipe_id, tag FROM recipe_tag WHERE household_id = ? ORDER BY recipe_id, tag", arguments: id) {
            tags[row["recipe_id"], default: []].append(row["tag"])
        }
        var ingredients: [Int64: [HouseholdDocument.IngredientPart]] = [:]
        let ingredientRows = try Row.fetchAll(
            db,
            sql: """
                SELECT ri.*, p.barcode AS product_barcode FROM recipe_ingredient ri LEFT JOIN product p ON p.id = ri.product_id
                WHERE ri.household_id = ? ORDER BY ri.recipe_id, ri.position, ri.id
                """, arguments: id)
        for row in ingredientRows {
            ingredients[row["recipe_id"], default: []].append(
                .init(name: row["name"], amount: row["amount"], unit: row["unit"], note: row["note"], productBarcode: row["product_barcode"]))
        }
        return try Recipe.fetchAll(db, sql: "SELECT * FROM recipe WHERE household_id = ? ORDER BY id", arguments: id).map { recipe in
            HouseholdDocument.RecipePart(
                id: recipe.id!, name: recipe.name, photo: recipe.photo, illustration: recipe.illustration, servings: recipe.servings, steps: recipe.steps,
                sourceUrl: recipe.sourceUrl, tags: tags[recipe.id!] ?? [], ingredients: ingredients[recipe.id!] ?? [], produce: recipe.produce,
                version: recipe.version, createdAt: recipe.createdAt, updatedAt: recipe.updatedAt, deletedAt: recipe.deletedAt)
        }
    }

    static func readCooks(_ db: Database, householdId: Household.ID) throws -> [HouseholdDocument.CookPart] {
        var takes: [Int64: [HouseholdDocument.CookTakePart]] = [:]
        let takeRows = try CookTake.fetchAll(
            db, sql: "SELECT t.* FROM cook_take t JOIN cook c ON c.id = t.cook_id WHERE c.household_id = ? ORDER BY t.id", arguments: [householdId])
        for take in takeRows {
            takes[take.cookId, default: []].append(
                .init(
                    itemId: take.itemId, ingredientName: take.ingredientName, amount: take.amount, usedUp: take.usedUp?.rawValue,
                    fromFolderId: take.fromFolderId, due: take.due, remindAt: take.remindAt, status: take.status))
        }
        return try Cook.fetchAll(db, sql: "SELECT * FROM cook WHERE household_id = ? ORDER BY id", arguments: [householdId]).map { cook in
            HouseholdDocument.CookPart(
                id: cook.id!, recipeId: cook.recipeId, recipeName: cook.recipeName, memberId: cook.memberId, servings: cook.servings,
                producedItemId: cook.producedItemId, cookedAt: cook.cookedAt, undoneAt: cook.undoneAt, takes: takes[cook.id!] ?? [])
        }
    }

    /// Inserts the recipes and cooks with new ids; returns the new cook ids (for the history lines).
    static func insertRecipes(
        _ db: Database, _ document: HouseholdDocument, householdId: Household.ID, ids: ImportedIds
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
