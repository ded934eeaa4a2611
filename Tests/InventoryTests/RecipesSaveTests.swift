import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// `Recipes.save` and `input`: what the editor stores, and every mistake it refuses.
@Suite("Recipes: saving")
struct RecipesSaveTests {
    static func curry() -> RecipeInput {
        RecipeInput(
            name: "  Chicken curry ", servings: "4", steps: "Cut.\r\n\r\nSimmer.", sourceUrl: "https://example.com/curry",
            picture: .illustration("meat"), tags: "和食、weekday, Weekday ，spicy",
            ingredients: [
                IngredientInput(name: "Chicken", amount: "300", unit: "g", note: "bite-size"),
                IngredientInput(),
                IngredientInput(name: "Onion", amount: "1 1/2"),
                IngredientInput(name: "Salt", amount: "½", unit: "tsp"),
                IngredientInput(unit: "g"),
                IngredientInput(name: "Rice", amount: "２００", unit: "g"),
            ],
            produce: ProduceInput(name: "Leftover curry", quantity: "2", unit: "pack", kind: "prepared", dueDays: "3"))
    }

    @Test func aNewRecipeIsStoredWithItsIngredientsAndTags() throws {
        let kitchen = try RecipeKitchen()
        let id = try kitchen.recipes.save(Self.curry(), id: nil, in: kitchen.household, by: kitchen.member)

        let recipe = try kitchen.recipes.recipe(id, in: kitchen.household)
        #expect(recipe.name == "Chicken curry")
        #expect(recipe.servings == 4)
        #expect(recipe.steps == "Cut.\n\nSimmer.")
        #expect(recipe.sourceUrl == "https://example.com/curry")
        #expect(recipe.picture == .illustration("meat"))
        #expect(recipe.produce == RecipeProduce(name: "Leftover curry", quantity: 2, unit: .pack, kind: .prepared, dueDays: 3))
        #expect(recipe.version == 1)
        #expect(recipe.createdAt == "2026-11-23T09:00:00Z")
        let detail = try kitchen.detail(id)
        #expect(detail.tags == ["spicy", "weekday", "和食"], "split on , 、 ，, trimmed, the second Weekday dropped")
        #expect(detail.ingredients.map(\.ingredient.name) == ["Chicken", "Onion", "Salt", "Rice"], "empty lines dropped")
        #expect(detail.ingredients.map(\.ingredient.position) == [0, 1, 2, 3])
        #expect(detail.ingredients.map(\.ingredient.amount) == [300, 1.5, 0.5, 200])
        #expect(detail.ingredients.map(\.ingredient.unit) == ["g", nil, "tsp", "g"])
        #expect(detail.ingredients[0].ingredient.note == "bite-size")
    }

    @Test(arguments: [
        ("200", 200.0), ("0.5", 0.5), ("1,5", 1.5), ("1/2", 0.5), ("1 1/2", 1.5), ("½", 0.5), ("1½", 1.5), ("２００", 200), ("１／２", 0.5),
        ("⅓", 0.333), (" 3 ", 3), ("1000000", 1_000_000),
    ])
    func amountsAreReadAsPeopleTypeThem(_ typed: String, _ expected: Double) throws {
        let value = try RecipeValidation.ingredient(IngredientInput(name: "x", amount: typed))?.get()
        #expect(value?.amount == expected)
    }

    @Test(arguments: ["0", "-1", "abc", "1/0", "1e3", "inf", "1 2", "1.5 1/2", "1//2", "+1", "0.0001", "nan", "1/-2"])
    func amountsThatAreNotPositiveNumbersAreRefused(_ typed: String) throws {
        #expect(throws: FieldErrors(["amount": .amountInvalid])) {
            try RecipeValidation.ingredient(IngredientInput(name: "x", amount: typed))?.get()
        }
    }

    @Test func everyMistakeComesBackBesideItsField() throws {
        let kitchen = try RecipeKitchen()
        let input = RecipeInput(
            name: " ", servings: "0", steps: String(repeating: "a", count: 20_001), sourceUrl: "javascript:alert(1)",
            picture: .illustration("no-such-picture"), tags: String(repeating: "t", count: 41),
            ingredients: [
                IngredientInput(name: "Milk", amount: "1"),
                IngredientInput(amount: "2", unit: "g"),
                IngredientInput(name: "Egg", amount: "two", unit: "dozen"),
                IngredientInput(name: String(repeating: "n", count: 101), amount: "2000000", note: String(repeating: "n", count: 201)),
            ],
            produce: ProduceInput(name: "Juice", quantity: "0", unit: "cup", kind: "drink", dueDays: "3651"))
        #expect(
            throws: InventoryError.validation([
                "name": .recipeNameRequired, "servings": .recipeServingsInvalid, "steps": .stepsTooLong,
                "source_url": .sourceUrlInvalid, "picture": .pictureInvalid, "tags": .tagTooLong,
                "ingredient.1.name": .ingredientNameRequired, "ingredient.2.amount": .amountInvalid,
                "ingredient.2.unit": .unitInvalid, "ingredient.3.name": .nameTooLong, "ingredient.3.amount": .amountTooLarge,
                "ingredient.3.note": .recipeNoteTooLong, "produce_quantity": .produceQuantityInvalid,
                "produce_unit": .unitInvalid, "produce_kind": .kindInvalid, "produce_due_days": .produceDueDaysInvalid,
            ])
        ) { try kitchen.recipes.save(input, id: nil, in: kitchen.household, by: kitchen.member) }
        #expect(try kitchen.overview().total == 0, "nothing stored")
    }

    @Test(arguments: [
        ("", FieldProblem.recipeServingsInvalid), ("101", .recipeServingsInvalid), ("2.5", .recipeServingsInvalid),
        ("x", .recipeServingsInvalid),
    ])
    func servingsAreAWholeNumberFromOneToAHundred(_ typed: String, _ key: FieldProblem) throws {
        #expect(throws: FieldErrors(["servings": key])) { try RecipeValidation.check(RecipeInput(name: "Tea", servings: typed)).get() }
        #expect(try RecipeValidation.check(RecipeInput(name: "Tea", servings: "１００")).get().servings == 100)
    }

    @Test func namesAndTagsHaveLimits() throws {
        #expect(throws: FieldErrors(["name": .nameTooLong])) { try RecipeValidation.check(RecipeInput(name: String(repeating: "鍋", count: 101))).get() }
        #expect(try RecipeValidation.check(RecipeInput(name: String(repeating: "鍋", count: 100))).get().name.count == 100)
        let many = (1...21).map { "tag\($0)" }.joined(separator: ",")
        #expect(throws: FieldErrors(["tags": .tooManyTags])) { try RecipeValidation.check(RecipeInput(name: "Tea", tags: many)).get() }
        let twenty = (1...20).map { "tag\($0)" }.joined(separator: "、") + ", TAG1 ,,"
        #expect(try RecipeValidation.check(RecipeInput(name: "Tea", tags: twenty)).get().tags.count == 20)
    }

    @Test(arguments: [
        ("https://cookpad.com/recipe/1", true), ("http://example.com", true), ("HTTPS://Example.com/a?b=c", true),
        ("ftp://example.com/a", false), ("javascript:alert(1)", false), ("data:text/html,hi", false), ("example.com", false),
        ("https://", false), ("https://exa mple.com", false), ("//example.com", false),
    ])
    func theSourceAddressIsAWebAddress(_ typed: String, _ accepted: Bool) throws {
        let result = RecipeValidation.check(RecipeInput(name: "Tea", sourceUrl: typed))
        if accepted {
            #expect(try result.get().sourceUrl == typed)
        } else {
            #expect(throws: FieldErrors(["source_url": .sourceUrlInvalid])) { try result.get() }
        }
    }

    @Test func aProducedItemNeedsAllItsFieldsOnlyWhenNamed() throws {
        let unnamed = RecipeInput(name: "Tea", produce: ProduceInput(name: " ", quantity: "x", unit: "cup", kind: "?", dueDays: "-1"))
        #expect(try RecipeValidation.check(unnamed).get().produce == nil)
        let named = RecipeInput(name: "Juice", produce: ProduceInput(name: "Juice", quantity: "0.5", unit: "L", kind: "drinks", dueDays: ""))
        #expect(try RecipeValidation.check(named).get().produce == RecipeProduce(name: "Juice", quantity: 0.5, unit: .L, kind: .drinks))
        let negative = RecipeInput(name: "Juice", produce: ProduceInput(name: "Juice", quantity: "1", unit: "L", kind: "drinks", dueDays: "-1"))
        #expect(throws: FieldErrors(["produce_due_days": .produceDueDaysInvalid])) { try RecipeValidation.check(negative).get() }
    }

    @Test func anotherHouseholdsProductsPhotosAndStockListsAreRefused() throws {
        let kitchen = try RecipeKitchen()
        let (nextDoor, theirFolder) = try kitchen.nextDoor()
        let photos = try PhotoStore(
            directory: FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-recipes-\(UUID().uuidString)"), database: kitchen.database)
        let theirPhoto = try photos.save(large: [0xFF, 0xD8, 1], small: [0xFF, 0xD8, 2], format: "jpeg", in: nextDoor)
        try kitchen.database.writer.write { db in
            try db.execute(
                sql: "INSERT INTO product (household_id, barcode, name, kind, unit, updated_at) VALUES (?, '123456', 'Milk', 'dairy_eggs', 'bottle', 'x')",
                arguments: [nextDoor.householdId])
        }
        let theirProduct = try kitchen.product(barcode: "123456", in: nextDoor)
        let input = RecipeInput(
            name: "Latte", picture: .photo(theirPhoto), ingredients: [IngredientInput(name: "Milk", productId: theirProduct)],
            produce: ProduceInput(name: "Latte", folderId: theirFolder))
        #expect(
            throws: InventoryError.validation([
                "picture": .pictureInvalid, "ingredient.0.product": .productInvalid, "produce_folder": .produceFolderInvalid,
            ])
        ) { try kitchen.recipes.save(input, id: nil, in: kitchen.household, by: kitchen.member) }
        // Our own shopping list is not a stock list either.
        let shopping = RecipeInput(name: "Latte", produce: ProduceInput(name: "Latte", folderId: try kitchen.folder(.shopping)))
        #expect(throws: InventoryError.validation(["produce_folder": .produceFolderInvalid])) {
            try kitchen.recipes.save(shopping, id: nil, in: kitchen.household, by: kitchen.member)
        }
        #expect(try kitchen.overview().total == 0)
    }

    @Test func ourOwnPhotoProductAndStockListAreAccepted() throws {
        let kitchen = try RecipeKitchen()
        let photos = try PhotoStore(
            directory: FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-recipes-\(UUID().uuidString)"), database: kitchen.database)
        let photo = try photos.save(large: [0xFF, 0xD8, 1], small: [0xFF, 0xD8, 2], format: "jpeg", in: kitchen.household)
        try kitchen.add("明治おいしい牛乳", 1, "bottle") { $0.barcode = "4902705001046" }
        let product = try kitchen.product(barcode: "4902705001046")
        let pantry = try kitchen.pantry()
        let input = RecipeInput(
            name: "Latte", picture: .photo(photo), ingredients: [IngredientInput(amount: "1", unit: "bottle", productId: product)],
            produce: ProduceInput(name: "Latte", quantity: "1", unit: "bottle", kind: "drinks", dueDays: "1", folderId: pantry))
        let id = try kitchen.recipes.save(input, id: nil, in: kitchen.household, by: kitchen.member)
        let detail = try kitchen.detail(id)
        #expect(detail.recipe.picture == .photo(photo))
        #expect(detail.recipe.produce?.folderId == pantry)
        #expect(detail.ingredients[0].ingredient.name == "明治おいしい牛乳", "a line linked to a product takes its name")
        #expect(detail.ingredients[0].ingredient.productId == product)
        #expect(detail.ingredients[0].standing == .enough)
    }

    @Test func anEditReplacesIngredientsAndTagsAndKeepsWhenItWasCreated() throws {
        let kitchen = try RecipeKitchen()
        let id = try kitchen.recipes.save(Self.curry(), id: nil, in: kitchen.household, by: kitchen.member)
        kitchen.fixture.clock.advance(3600)
        var edit = try kitchen.recipes.input(id, in: kitchen.household)
        #expect(edit.name == "Chicken curry")
        #expect(edit.servings == "4")
        #expect(edit.tags == "spicy, weekday, 和食")
        #expect(edit.ingredients.map(\.amount) == ["300", "1.5", "0.5", "200"])
        #expect(edit.produce == ProduceInput(name: "Leftover curry", quantity: "2", unit: "pack", kind: "prepared", dueDays: "3"))
        edit.ingredients = [IngredientInput(name: "Tofu", amount: "1", unit: "pack"), edit.ingredients[0]]
        edit.tags = "vegetarian"
        edit.produce.name = ""
        try kitchen.recipes.save(edit, id: id, in: kitchen.household, by: kitchen.member)

        let detail = try kitchen.detail(id)
        #expect(detail.ingredients.map(\.ingredient.name) == ["Tofu", "Chicken"])
        #expect(detail.tags == ["vegetarian"])
        #expect(detail.recipe.produce == nil)
        #expect(detail.recipe.version == 2)
        #expect(detail.recipe.createdAt == "2026-11-23T09:00:00Z")
        #expect(detail.recipe.updatedAt == "2026-11-23T10:00:00Z")
        let rows = try kitchen.database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM recipe_ingredient") }
        #expect(rows == 2)
        // Unchanged input read back saves to the same thing.
        let again = try kitchen.recipes.input(id, in: kitchen.household)
        try kitchen.recipes.save(again, id: id, in: kitchen.household, by: kitchen.member)
        #expect(try kitchen.recipes.input(id, in: kitchen.household) == again)
    }

    @Test func anEditOfAnUnknownForeignOrTrashedRecipeIsNotFound() throws {
        let kitchen = try RecipeKitchen()
        let (nextDoor, _) = try kitchen.nextDoor()
        let theirs = try kitchen.recipe("Theirs", in: nextDoor)
        let trashed = try kitchen.recipe("Trashed")
        try kitchen.recipes.trash(trashed, in: kitchen.household, by: kitchen.member)
        for id in [theirs, trashed, 99_999] {
            #expect(throws: InventoryError.notFound) {
                try kitchen.recipes.save(RecipeInput(name: "Mine now"), id: id, in: kitchen.household, by: kitchen.member)
            }
            // Not found comes before any word about the form.
            #expect(throws: InventoryError.notFound) {
                try kitchen.recipes.save(RecipeInput(name: ""), id: id, in: kitchen.household, by: kitchen.member)
            }
        }
        #expect(
            try kitchen.database.writer.read { db in try String.fetchOne(db, sql: "SELECT name FROM recipe WHERE id = ?", arguments: [theirs]) } == "Theirs")
    }
}
