import Inventory

/// The checks of an import's recipe parts (format version 2; absent from version 1 files) and of
/// its meal plan (version 6).
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
        try check(
            recipes.allSatisfy { $0.produce?.folderId.map { stockFolders.contains($0.rawValue) } ?? true },
            "a recipe makes an item in a folder that is not in the file")
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
        try checkMeals(document, recipes: recipeIds, cooks: cookIds, members: members)
    }

    /// The meal plan's part (format version 6): each meal a recipe of the file for 1–99 servings
    /// or a note, on a meal and in a state this server knows.
    /// A meal's place within its day's meal: a household places a few there, never this many.
    static let mealPositionLimit = 10_000

    static func checkMeals(_ document: HouseholdDocument, recipes: Set<Int64>, cooks: Set<Int64>, members: Set<Int64>) throws {
        let meals = document.meals ?? []
        func check(_ condition: Bool, _ problem: String) throws { if !condition { throw HouseholdImportError.inconsistent(problem) } }
        try check(Set(meals.map(\.id)).count == meals.count, "two meals share an id")
        try check(meals.allSatisfy { $0.recipeId.map(recipes.contains) ?? true }, "a meal refers to a recipe that is not in the file")
        try check(meals.allSatisfy { $0.cookId.map(cooks.contains) ?? true }, "a meal refers to a cook that is not in the file")
        try check(meals.allSatisfy { $0.memberId.map(members.contains) ?? true }, "a meal refers to a member who is not in the file")
        try check(
            meals.allSatisfy { meal in
                MealSlot(rawValue: meal.slot) != nil && meal.done.map { MealDone(rawValue: $0) != nil } ?? true
                    && meal.note.unicodeScalars.count <= MealPlan.noteLimit && (0...Self.mealPositionLimit).contains(meal.position)
                    && (meal.recipeId == nil ? meal.servings == nil && !meal.note.isEmpty : meal.servings.map(MealPlan.servingsRange.contains) ?? false)
            }, "a meal holds a meal, place, state, servings or note this server does not take")
    }
}
