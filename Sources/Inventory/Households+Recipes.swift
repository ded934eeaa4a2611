import GRDB
import Tagged

/// The recipe parts of a household document (format version 2): recipes with their ingredients
/// and tags, and the cooks with what each took.
extension Households {
    static func readRecipes(_ db: Database, householdId: Household.ID) throws -> [HouseholdDocument.RecipePart] {
        let id: StatementArguments = [householdId]
        var tags: [Recipe.ID: [String]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT recipe_id, tag FROM recipe_tag WHERE household_id = ? ORDER BY recipe_id, tag", arguments: id) {
            tags[row["recipe_id"], default: []].append(row["tag"])
        }
        var ingredients: [Recipe.ID: [HouseholdDocument.IngredientPart]] = [:]
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
                id: recipe.id.rawValue, name: recipe.name, photo: recipe.photo, illustration: recipe.illustration, servings: recipe.servings,
                steps: recipe.steps,
                sourceUrl: recipe.sourceUrl, tags: tags[recipe.id] ?? [], ingredients: ingredients[recipe.id] ?? [], produce: recipe.produce,
                version: recipe.version, createdAt: recipe.createdAt, updatedAt: recipe.updatedAt, deletedAt: recipe.deletedAt)
        }
    }

    static func readCooks(_ db: Database, householdId: Household.ID) throws -> [HouseholdDocument.CookPart] {
        var takes: [Cook.ID: [HouseholdDocument.CookTakePart]] = [:]
        let takeRows = try CookTake.fetchAll(
            db, sql: "SELECT t.* FROM cook_take t JOIN cook c ON c.id = t.cook_id WHERE c.household_id = ? ORDER BY t.id", arguments: [householdId])
        for take in takeRows {
            takes[take.cookId, default: []].append(
                .init(
                    itemId: take.itemId.rawValue, ingredientName: take.ingredientName, amount: take.amount, usedUp: take.usedUp?.rawValue,
                    fromFolderId: take.fromFolderId?.rawValue, due: take.due, remindAt: take.remindAt, status: take.status))
        }
        return try Cook.fetchAll(db, sql: "SELECT * FROM cook WHERE household_id = ? ORDER BY id", arguments: [householdId]).map { cook in
            HouseholdDocument.CookPart(
                id: cook.id.rawValue, recipeId: cook.recipeId?.rawValue, recipeName: cook.recipeName, memberId: cook.memberId?.rawValue,
                servings: cook.servings, producedItemId: cook.producedItemId?.rawValue, cookedAt: cook.cookedAt, undoneAt: cook.undoneAt,
                takes: takes[cook.id] ?? [])
        }
    }

    /// Inserts the recipes and cooks with new ids; returns the new ids of both (for the meals and
    /// the history lines).
    static func insertRecipes(
        _ db: Database, _ document: HouseholdDocument, householdId: Household.ID, ids: ImportedIds
    ) throws -> (recipes: [Int64: Recipe.ID], cooks: [Int64: Cook.ID]) {
        var productIds: [String: Product.ID] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, barcode FROM product WHERE household_id = ?", arguments: [householdId]) {
            productIds[row["barcode"]] = row["id"]
        }
        var recipeIds: [Int64: Recipe.ID] = [:]
        for part in document.recipes ?? [] {
            var produce = part.produce
            if let folder = part.produce?.folderId { produce?.folderId = ids.folders[folder.rawValue] }
            let recipe = try Recipe.Draft(
                householdId: householdId, name: part.name, photo: part.photo.flatMap { ids.photos[$0] }, illustration: part.illustration,
                servings: part.servings, steps: part.steps, sourceUrl: part.sourceUrl, produce: produce, version: part.version,
                createdAt: part.createdAt, updatedAt: part.updatedAt, deletedAt: part.deletedAt
            ).insertAndFetch(db, as: Recipe.self)
            recipeIds[part.id] = recipe.id
            for (position, ingredient) in part.ingredients.enumerated() {
                try RecipeIngredient.Draft(
                    householdId: householdId, recipeId: recipe.id, position: position, name: ingredient.name, amount: ingredient.amount,
                    unit: ingredient.unit, note: ingredient.note, productId: ingredient.productBarcode.flatMap { productIds[$0] }
                ).insert(db)
            }
            for tag in Set(part.tags) { try RecipeTag(recipeId: recipe.id, householdId: householdId, tag: tag).insert(db) }
        }
        var cookIds: [Int64: Cook.ID] = [:]
        for part in document.cooks ?? [] {
            let cook = try Cook.Draft(
                householdId: householdId, recipeId: part.recipeId.flatMap { recipeIds[$0] }, recipeName: part.recipeName,
                memberId: part.memberId.flatMap { ids.members[$0] }, servings: part.servings, producedItemId: part.producedItemId.flatMap { ids.items[$0] },
                cookedAt: part.cookedAt, undoneAt: part.undoneAt
            ).insertAndFetch(db, as: Cook.self)
            cookIds[part.id] = cook.id
            for take in part.takes {
                try CookTake.Draft(
                    cookId: cook.id, itemId: ids.items[take.itemId]!, ingredientName: take.ingredientName, amount: take.amount,
                    usedUp: take.usedUp.flatMap(CookTake.UsedUp.init(rawValue:)), fromFolderId: take.fromFolderId.flatMap { ids.folders[$0] }, due: take.due,
                    remindAt: take.remindAt, status: take.status
                ).insert(db)
            }
        }
        let usedUpFolder = document.household.usedUpFolderId.flatMap { ids.folders[$0] }
        try db.execute(
            sql: "UPDATE household SET used_up = ?, used_up_folder_id = ? WHERE id = ?",
            arguments: [document.household.usedUp ?? "trash", usedUpFolder, householdId])
        return (recipeIds, cookIds)
    }

    static func readMeals(_ db: Database, householdId: Household.ID) throws -> [HouseholdDocument.MealPart] {
        try Meal.fetchAll(db, sql: "SELECT * FROM meal WHERE household_id = ? ORDER BY id", arguments: [householdId]).map { meal in
            HouseholdDocument.MealPart(
                id: meal.id.rawValue, day: meal.day, slot: meal.slot.rawValue, position: meal.position, recipeId: meal.recipeId?.rawValue,
                servings: meal.servings, note: meal.note, seriesId: meal.seriesId?.rawValue, cookId: meal.cookId?.rawValue, done: meal.done?.rawValue,
                memberId: meal.memberId?.rawValue, createdAt: meal.createdAt, updatedAt: meal.updatedAt)
        }
    }

    /// Inserts the plan's meals with new ids. Weekly copies keep sharing a series: the new id of
    /// the meal it is named after, or of the first of them when that meal was removed.
    static func insertMeals(
        _ db: Database, _ document: HouseholdDocument, householdId: Household.ID, recipes: [Int64: Recipe.ID], cooks: [Int64: Cook.ID],
        members: [Int64: Member.ID]
    ) throws {
        let meals = document.meals ?? []
        var mealIds: [Int64: Meal.ID] = [:]
        for part in meals {
            try db.cachedStatement(
                sql: """
                    INSERT INTO meal (household_id, day, slot, position, recipe_id, servings, note, cook_id, done, member_id, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(
                arguments: [
                    householdId, part.day, part.slot, part.position, part.recipeId.flatMap { recipes[$0] }, part.servings, part.note,
                    part.cookId.flatMap { cooks[$0] }, part.done, part.memberId.flatMap { members[$0] }, part.createdAt, part.updatedAt,
                ])
            mealIds[part.id] = Meal.ID(rawValue: db.lastInsertedRowID)
        }
        var series: [Int64: Meal.ID] = [:]
        for part in meals {
            guard let old = part.seriesId, let id = mealIds[part.id] else { continue }
            let shared = series[old] ?? mealIds[old] ?? id
            series[old] = shared
            try db.cachedStatement(sql: "UPDATE meal SET series_id = ? WHERE id = ?").execute(arguments: [shared, id])
        }
    }

    /// Old id → new id of what the recipe parts refer to.
    struct ImportedIds {
        var members: [Int64: Member.ID] = [:]
        var folders: [Int64: Folder.ID] = [:]
        var items: [Int64: Item.ID] = [:]
        var photos: [String: String] = [:]
    }
}
