import Foundation
import GRDB

extension Recipes {
    /// Checks and stores a recipe in one transaction: a new one when `id` is nil, else replaces the
    /// recipe's fields, ingredients and tags (its `version` goes up, `createdAt` stays). Errors:
    /// `InventoryError.validation` with locale keys by field (see `RecipeValidation`), `.notFound`
    /// for an id of another household or in the trash. Pictures, linked products and the produced
    /// item's stock list must be the household's own; another's is a validation error.
    @discardableResult
    public func save(_ input: RecipeInput, id: Recipe.ID?, in scope: HouseholdScope, by memberId: Member.ID) throws -> Recipe.ID {
        let time = stamp()
        return try database.write(by: memberId, at: time) { db in
            // A recipe that is not there (or not ours) is not found, whatever the form says.
            let stored = try id.map { try Self.recipe(db, $0, scope.householdId) }
            let values: RecipeValues
            switch RecipeValidation.check(input) {
            case .success(let checked): values = checked
            case .failure(let problems): throw InventoryError.validation(problems.fields)
            }
            var draft = stored?.draft ?? Recipe.Draft(householdId: scope.householdId, name: values.name, createdAt: time)
            let productNames = try Self.checkOwnership(db, values, householdId: scope.householdId)
            draft.name = values.name
            draft.nameFolded = SearchText.fold(values.name)
            draft.servings = values.servings
            draft.steps = values.steps
            draft.sourceUrl = values.sourceUrl
            draft.photo = values.picture?.photoKey
            draft.illustration = values.picture?.illustrationSlug
            draft.produce = values.produce
            draft.updatedAt = time
            let recipe: Recipe
            if let stored {
                draft.version += 1
                recipe = Recipe(id: stored.id, draft: draft)
                try recipe.update(db)
                try db.execute(sql: "DELETE FROM recipe_ingredient WHERE recipe_id = ?", arguments: [recipe.id])
                try db.execute(sql: "DELETE FROM recipe_tag WHERE recipe_id = ?", arguments: [recipe.id])
            } else {
                recipe = try draft.insertAndFetch(db, as: Recipe.self)
            }
            for (position, line) in values.ingredients.enumerated() {
                let value = line.value
                let name = value.name.isEmpty ? (value.productId.flatMap { productNames[$0] } ?? "") : value.name
                try RecipeIngredient.Draft(
                    householdId: scope.householdId, recipeId: recipe.id, position: position, name: name, amount: value.amount, unit: value.unit,
                    note: value.note, productId: value.productId
                ).insert(db)
            }
            for tag in values.tags { try RecipeTag(recipeId: recipe.id, householdId: scope.householdId, tag: tag).insert(db) }
            return recipe.id
        }
    }

    /// What the form names by id must be the household's: photos, products, the stock list.
    /// Returns the linked products' names (a line may take its name from its product).
    private static func checkOwnership(_ db: Database, _ values: RecipeValues, householdId: Household.ID) throws -> [Product.ID: String] {
        var errors: [String: FieldProblem] = [:]
        if let key = values.picture?.photoKey, try !PhotoStore.belongs(db, key: key, householdId: householdId) {
            errors["picture"] = .pictureInvalid
        }
        var names: [Product.ID: String] = [:]
        for (index, value) in values.ingredients {
            guard let productId = value.productId else { continue }
            if let name = try String.fetchOne(
                db.cachedStatement(sql: "SELECT name FROM product WHERE id = ? AND household_id = ?"), arguments: [productId, householdId])
            {
                names[productId] = name
            } else {
                errors["ingredient.\(index).product"] = .productInvalid
            }
        }
        if let folderId = values.produce?.folderId {
            let kind = try String.fetchOne(
                db.cachedStatement(sql: "SELECT kind FROM folder WHERE id = ? AND household_id = ? AND deleted_at IS NULL"),
                arguments: [folderId, householdId])
            if kind != FolderKind.stock.rawValue { errors["produce_folder"] = .produceFolderInvalid }
        }
        if !errors.isEmpty { throw InventoryError.validation(errors) }
        return names
    }
}
