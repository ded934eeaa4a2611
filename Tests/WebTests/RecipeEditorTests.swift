import Foundation
import HTTPServer
import Inventory
import RecipeImport
import Testing

@testable import Web

/// A recipe of Home's, stored through the domain (the editor's own routes are under test).
enum RecipeFixture {
    static func home(_ fixture: HouseholdFixture) throws -> SignedIn { try fixture.accounts.session(token: fixture.owner)! }

    static func recipes(_ fixture: HouseholdFixture) -> Recipes { Recipes(database: fixture.app.database) }

    @discardableResult
    static func soup(_ fixture: HouseholdFixture, name: String = "Milk soup") throws -> Int64 {
        let owner = try home(fixture)
        let input = RecipeInput(
            name: name, servings: "2", steps: "Warm the milk.\n\nAdd the onion.", tags: "soup, quick",
            ingredients: [IngredientInput(name: "Milk", amount: "400", unit: "ml"), IngredientInput(name: "Onion", amount: "1", unit: "piece")])
        return try recipes(fixture).save(input, id: nil, in: owner.household, by: owner.memberId)
    }
}

@Suite("Recipe editor")
struct RecipeEditorTests {
    /// The form of a recipe with three ingredients and two blank rows, as a browser sends it.
    static func form(name: String = "Curry", rows: [(String, String, String, String)]? = nil) -> [(String, String)] {
        var form: [(String, String)] = [
            ("action", "save"), ("name", name), ("servings", "4"), ("tags", "dinner, 簡単"), ("source_url", "https://example.com/curry"),
            ("steps", "Cut the vegetables.\r\n\r\nSimmer for 20 minutes."), ("picture", ""),
            ("produce_name", ""), ("produce_quantity", "1"), ("produce_unit", "piece"), ("produce_kind", "prepared"), ("produce_due_days", ""),
        ]
        let typed = rows ?? [("Onion", "2", "piece", "sliced"), ("Milk", "1/2", "L", ""), ("醤油", "2", "tbsp", ""), ("", "", "", ""), ("", "", "", "")]
        for (index, row) in typed.enumerated() {
            form += [
                ("ingredient.\(index).name", row.0), ("ingredient.\(index).amount", row.1), ("ingredient.\(index).unit", row.2),
                ("ingredient.\(index).note", row.3),
            ]
        }
        return form
    }

    static func savedId(_ response: Response) throws -> Int64 {
        let location = try #require(response.header("Location"))
        #expect(location.hasSuffix("?saved=1"), "\(location)")
        let id = location.dropFirst("/recipes/".count).prefix { $0.isNumber }
        return try #require(Int64(id))
    }

    @Test func aNewRecipeStartsWithFiveEmptyRowsAndTheStockNamesToChooseFrom() async throws {
        let fixture = try await HouseholdFixture()
        let response = try fixture.send("GET", "/recipes/new", as: fixture.member)
        #expect(response.status == 200)
        let page = response.text
        for index in 0..<5 { #expect(page.contains("name=\"ingredient.\(index).name\"")) }
        #expect(!page.contains("name=\"ingredient.5.name\""))
        // The datalist offers Home's milk, so the name typed matches the stock.
        #expect(page.contains("<datalist id=\"ingredient-names\"><option value=\"Milk\">"))
        #expect(page.contains("list=\"ingredient-names\""))
        #expect(page.contains("inputmode=\"decimal\""))
        // The product remembered from the milk's barcode can be linked instead of the name.
        #expect(page.contains("name=\"ingredient.0.product\""))
        #expect(page.contains("<option value=\"tbsp\">tbsp</option>"))
        let japanese = try fixture.send("GET", "/recipes/new", as: fixture.member, headers: [("Accept-Language", "ja")]).text
        for word in ["大さじ", "小さじ", "カップ", "少々", "適量"] { #expect(japanese.contains(">\(word)</option>"), "\(word)") }
    }

    @Test func anImportedDraftFillsTheEditorOnceForItsSessionOnly() async throws {
        let fixture = try await HouseholdFixture()
        let member = try #require(try fixture.accounts.session(token: fixture.member))
        let imported = ImportedRecipe(
            name: "Banana juice", servings: 3,
            ingredients: [ParsedIngredient(name: "Banana", amount: 2), ParsedIngredient(name: "Milk", amount: 0.25, unit: "L", note: "cold")],
            steps: "Blend.\n\nServe.", sourceURL: URL(string: "https://example.com/juice"))
        let token = fixture.app.recipeDrafts.keep(RecipeInput(imported: imported, picture: .photo(fixture.photoKey)), for: member)!
        // Another member's session does not get it (and does not use it up).
        #expect(!(try fixture.send("GET", "/recipes/new?draft=\(token)", as: fixture.owner).text.contains("Banana juice")))
        let page = try fixture.send("GET", "/recipes/new?draft=\(token)", as: fixture.member).text
        #expect(page.contains("value=\"Banana juice\""))
        #expect(page.contains("name=\"servings\" type=\"text\" value=\"3\""))
        #expect(page.contains("name=\"ingredient.0.amount\" type=\"text\" inputmode=\"decimal\" value=\"2\""))
        #expect(page.contains("name=\"ingredient.1.amount\" type=\"text\" inputmode=\"decimal\" value=\"0.25\""))
        #expect(page.contains("<option value=\"L\" selected>"))
        #expect(page.contains("value=\"cold\""))
        #expect(page.contains("value=\"https://example.com/juice\""))
        #expect(page.contains("value=\"photo:\(fixture.photoKey)\" checked"))
        #expect(page.contains("Blend.\n\nServe."))
        // Three spare rows after the two imported ones.
        #expect(page.contains("name=\"ingredient.4.name\""))
        #expect(!page.contains("name=\"ingredient.5.name\""))
        // Taken once: a reload shows an empty editor.
        #expect(!(try fixture.send("GET", "/recipes/new?draft=\(token)", as: fixture.member).text.contains("Banana juice")))
    }

    @Test func creatingARecipeStoresWhatWasTypedAndOpensIt() async throws {
        let fixture = try await HouseholdFixture()
        let response = try fixture.send("POST", "/recipes", as: fixture.member, form: Self.form())
        #expect(response.status == 303)
        let id = try Self.savedId(response)
        let owner = try RecipeFixture.home(fixture)
        let stored = try RecipeFixture.recipes(fixture).input(id, in: owner.household)
        #expect(stored.name == "Curry")
        #expect(stored.servings == "4")
        #expect(stored.ingredients.map(\.name) == ["Onion", "Milk", "醤油"])
        #expect(stored.ingredients.map(\.unit) == ["piece", "L", "tbsp"])
        #expect(stored.ingredients[0].note == "sliced")
        #expect(stored.steps == "Cut the vegetables.\n\nSimmer for 20 minutes.")
        #expect(stored.sourceUrl == "https://example.com/curry")
    }

    @Test func aRecipeMayProduceAnItemForAStockList() async throws {
        let fixture = try await HouseholdFixture()
        let form =
            Self.form().filter { !$0.0.hasPrefix("produce_") } + [
                ("produce_name", "Curry for later"), ("produce_quantity", "2"), ("produce_unit", "pack"), ("produce_kind", "prepared"),
                ("produce_due_days", "3"), ("produce_folder", "\(fixture.fridgeId)"),
            ]
        let id = try Self.savedId(try fixture.send("POST", "/recipes", as: fixture.member, form: form))
        let owner = try RecipeFixture.home(fixture)
        let produce = try #require(try RecipeFixture.recipes(fixture).recipe(id, in: owner.household).produce)
        #expect(produce == RecipeProduce(name: "Curry for later", quantity: 2, unit: .pack, kind: .prepared, dueDays: 3, folderId: fixture.fridgeId))
        // The editor opens the section when the recipe makes something.
        let page = try fixture.send("GET", "/recipes/\(id)/edit", as: fixture.member).text
        #expect(page.contains("<details class=\"card recipe-produce\" open>"))
        #expect(page.contains("value=\"Curry for later\""))
        #expect(page.contains("<option value=\"\(fixture.fridgeId)\" selected>"))
    }

    @Test func editingShowsTheRecipeAndAClearedRowRemovesThatIngredient() async throws {
        let fixture = try await HouseholdFixture()
        let id = try RecipeFixture.soup(fixture)
        let page = try fixture.send("GET", "/recipes/\(id)/edit", as: fixture.member)
        #expect(page.status == 200)
        #expect(page.text.contains("value=\"Milk soup\""))
        #expect(page.text.contains("name=\"ingredient.1.name\" type=\"text\" value=\"Onion\""))
        // Three spare rows after the two stored ones.
        #expect(page.text.contains("name=\"ingredient.4.name\""))
        #expect(!page.text.contains("name=\"ingredient.5.name\""))
        #expect(page.text.contains("action=\"/recipes/\(id)/delete\""))

        let rows = [("Milk", "500", "ml", ""), ("", "", "", ""), ("Salt", "", "to_taste", "")]
        let response = try fixture.send("POST", "/recipes/\(id)", as: fixture.member, form: Self.form(name: "Milk soup", rows: rows))
        #expect(response.status == 303)
        #expect(try Self.savedId(response) == id)
        let owner = try RecipeFixture.home(fixture)
        let stored = try RecipeFixture.recipes(fixture).input(id, in: owner.household)
        #expect(stored.ingredients.map(\.name) == ["Milk", "Salt"])
        #expect(stored.ingredients[0].amount == "500")
    }

    /// Each refusal: the field's message beside it, status 422, every row as typed and in order.
    @Test(arguments: [
        ("name", "", "f-name-error"),
        ("servings", "0", "f-servings-error"),
        ("servings", "many", "f-servings-error"),
        ("source_url", "javascript:alert(1)", "f-source_url-error"),
        ("ingredient.1.amount", "lots", "f-ingredient.1.amount-error"),
        ("ingredient.0.unit", "bucket", "f-ingredient.0.unit-error"),
        ("ingredient.2.name", "", "f-ingredient.2.name-error"),
        ("produce_quantity", "-1", "f-produce_quantity-error"),
        ("produce_due_days", "soon", "f-produce_due_days-error"),
    ])
    func aRefusedFieldIsNamedBesideItAndEverythingTypedStays(field: String, value: String, errorId: String) async throws {
        let fixture = try await HouseholdFixture()
        var form = Self.form().filter { $0.0 != field } + [(field, value)]
        if field.hasPrefix("produce_") { form = form.filter { $0.0 != "produce_name" } + [("produce_name", "Curry for later")] }
        let response = try fixture.send("POST", "/recipes", as: fixture.member, form: form)
        #expect(response.status == 422)
        let page = response.text
        #expect(page.contains("id=\"\(errorId)\""), "\(field)")
        #expect(page.contains("role=\"alert\""))
        // Typed values kept, rows in their places.
        if field != "ingredient.2.name" { #expect(page.contains("name=\"ingredient.2.name\" type=\"text\" value=\"醤油\"")) }
        #expect(page.contains("name=\"ingredient.0.note\" type=\"text\" value=\"sliced\""))
        #expect(page.contains("Simmer for 20 minutes."))
        #expect(page.contains("value=\"dinner, 簡単\""))
        if field != "ingredient.1.amount" { #expect(page.contains("name=\"ingredient.1.amount\" type=\"text\" inputmode=\"decimal\" value=\"1/2\"")) }
        // Nothing stored.
        let owner = try RecipeFixture.home(fixture)
        #expect(try RecipeFixture.recipes(fixture).trashed(in: owner.household).isEmpty)
        #expect(try fixture.send("GET", "/recipes/\(fixture.recipeId + 1)/edit", as: fixture.member).status == 404)
    }

    @Test func errorsAreInTheReadersLanguage() async throws {
        let fixture = try await HouseholdFixture()
        let english = try fixture.send("POST", "/recipes", as: fixture.member, form: Self.form(name: "")).text
        let japanese = try fixture.send("POST", "/recipes", as: fixture.member, form: Self.form(name: ""), headers: [("Accept-Language", "ja")]).text
        #expect(english.contains("1 field needs a change"))
        #expect(japanese.contains("1か所を直してください"))
        // The domain's message key is shown as words, not as the key.
        #expect(!english.contains("recipe_error_"))
        #expect(!japanese.contains("recipe_error_"))
    }

    @Test func moreRowsKeepsEverythingTypedAndAddsFive() async throws {
        let fixture = try await HouseholdFixture()
        let rows = (0..<5).map { ("Item \($0)", "\($0 + 1)", "g", "note \($0)") }
        var form = Self.form(rows: rows).filter { $0.0 != "action" } + [("action", "more")]
        form.append(("crop", ""))
        let photo = try UploadFixtures.file("photo_file", UploadFixtures.jpeg())
        let response = try fixture.send("POST", "/recipes", as: fixture.member, form: form, files: [photo])
        #expect(response.status == 200)
        let page = response.text
        for index in 0..<5 { #expect(page.contains("name=\"ingredient.\(index).name\" type=\"text\" value=\"Item \(index)\"")) }
        #expect(page.contains("name=\"ingredient.9.name\""))
        #expect(!page.contains("name=\"ingredient.10.name\""))
        // The photo sent with "More rows" is kept: the form now points at the stored photo.
        let key = try #require(page.range(of: "value=\"photo:").map { page[$0.upperBound...].prefix { $0 != "\"" } })
        #expect(page.contains("value=\"photo:\(key)\" checked"))
        let owner = try RecipeFixture.home(fixture)
        #expect(try RecipeFixture.recipes(fixture).trashed(in: owner.household).isEmpty)

        let saved = try fixture.send(
            "POST", "/recipes", as: fixture.member, form: Self.form(rows: rows).filter { $0.0 != "picture" } + [("picture", "photo:\(key)")])
        let id = try Self.savedId(saved)
        #expect(try RecipeFixture.recipes(fixture).recipe(id, in: owner.household).picture == .photo(String(key)))
    }

    @Test func aPhotoSentWithTheSaveBecomesThePicture() async throws {
        let fixture = try await HouseholdFixture()
        let photo = try UploadFixtures.file("photo_file", UploadFixtures.jpeg())
        let response = try fixture.send("POST", "/recipes", as: fixture.member, form: Self.form() + [("crop", "")], files: [photo])
        let id = try Self.savedId(response)
        let owner = try RecipeFixture.home(fixture)
        let recipe = try RecipeFixture.recipes(fixture).recipe(id, in: owner.household)
        guard case .photo = recipe.picture else {
            Issue.record("no photo: \(String(describing: recipe.picture))")
            return
        }
    }

    @Test func anIllustrationCanBeThePicture() async throws {
        let fixture = try await HouseholdFixture()
        let form = Self.form().filter { $0.0 != "picture" } + [("picture", "illustration:prepared")]
        let id = try Self.savedId(try fixture.send("POST", "/recipes", as: fixture.member, form: form))
        let owner = try RecipeFixture.home(fixture)
        #expect(try RecipeFixture.recipes(fixture).recipe(id, in: owner.household).picture == .illustration("prepared"))
        #expect(try fixture.send("GET", "/recipes/\(id)/edit", as: fixture.member).text.contains("value=\"illustration:prepared\" checked"))
    }

    @Test func aFileThatIsNotAPictureIsRefusedBesideThePictureAndTheFormStays() async throws {
        let fixture = try await HouseholdFixture()
        let file = try UploadFixtures.file("photo_file", Array("not a picture".utf8), name: "notes.txt", type: "text/plain")
        let response = try fixture.send("POST", "/recipes", as: fixture.member, form: Self.form(), files: [file])
        #expect(response.status == 422)
        #expect(response.text.contains("id=\"f-picture-error\""))
        #expect(response.text.contains("value=\"Curry\""))
    }

    @Test func anotherHouseholdsRecipeIsNotFound() async throws {
        let fixture = try await HouseholdFixture()
        let id = try RecipeFixture.soup(fixture)
        #expect(try fixture.send("GET", "/recipes/\(id)/edit", as: fixture.otherOwner).status == 404)
        #expect(try fixture.send("POST", "/recipes/\(id)", as: fixture.otherOwner, form: Self.form(name: "Mine now")).status == 404)
        #expect(try fixture.send("POST", "/recipes/\(id)/delete", as: fixture.otherOwner).status == 404)
        _ = try fixture.send("POST", "/recipes/restore", as: fixture.otherOwner, form: [("ids", "\(id)")])
        _ = try fixture.send("POST", "/trash/recipes/purge", as: fixture.otherOwner, form: [("ids", "\(id)")])
        let owner = try RecipeFixture.home(fixture)
        #expect(try RecipeFixture.recipes(fixture).recipe(id, in: owner.household).name == "Milk soup")
    }

    @Test func anotherHouseholdsProductPhotoOrStockListIsAFieldError() async throws {
        let fixture = try await HouseholdFixture()
        let grandma = try fixture.accounts.session(token: fixture.otherOwner)!
        let theirList = try fixture.items.folders(in: grandma.household, kind: .stock)[0].id!
        var tea = ItemInput()
        tea.name = "Tea"
        tea.barcode = "4901234567801"
        _ = try fixture.items.register([tea], into: theirList, in: grandma.household, by: grandma.memberId, timeZone: .gmt)
        let theirProduct = try Products(database: fixture.app.database).all(in: grandma.household)[0].id
        let theirPhoto = try fixture.app.photos.save(
            large: [0xFF, 0xD8, 0xFF, 0xD9], small: [0xFF, 0xD8, 0xFF, 0xD9], format: "jpeg", in: grandma.household)

        let product = try fixture.send("POST", "/recipes", as: fixture.member, form: Self.form() + [("ingredient.0.product", "\(theirProduct)")])
        #expect(product.status == 422)
        #expect(product.text.contains("id=\"f-ingredient.0.product-error\""))
        // Home's own product is fine.
        let own = try fixture.send("POST", "/recipes", as: fixture.member, form: Self.form() + [("ingredient.0.product", "\(fixture.productId)")])
        #expect(own.status == 303)

        let photo = try fixture.send(
            "POST", "/recipes", as: fixture.member, form: Self.form().filter { $0.0 != "picture" } + [("picture", "photo:\(theirPhoto)")])
        #expect(photo.status == 422)
        #expect(photo.text.contains("id=\"f-picture-error\""))

        let list = try fixture.send(
            "POST", "/recipes", as: fixture.member,
            form: Self.form().filter { $0.0 != "produce_name" } + [("produce_name", "Curry for later"), ("produce_folder", "\(theirList)")])
        #expect(list.status == 422)
        #expect(list.text.contains("id=\"f-produce_folder-error\""))
    }

    @Test func viewersMayNotWriteRecipes() async throws {
        let fixture = try await HouseholdFixture()
        let id = try RecipeFixture.soup(fixture)
        #expect(try fixture.send("GET", "/recipes/new", as: fixture.viewer).status == 403)
        #expect(try fixture.send("POST", "/recipes", as: fixture.viewer, form: Self.form()).status == 403)
        #expect(try fixture.send("GET", "/recipes/\(id)/edit", as: fixture.viewer).status == 403)
        #expect(try fixture.send("POST", "/recipes/\(id)/delete", as: fixture.viewer).status == 403)
        let owner = try RecipeFixture.home(fixture)
        #expect(try RecipeFixture.recipes(fixture).recipe(id, in: owner.household).name == "Milk soup")
    }

    @Test func aFormWithoutItsTokenChangesNothing() async throws {
        let fixture = try await HouseholdFixture()
        let id = try RecipeFixture.soup(fixture)
        #expect(try fixture.send("POST", "/recipes", as: fixture.member, form: Self.form(), csrf: .wrong).status == 403)
        #expect(try fixture.send("POST", "/recipes/\(id)", as: fixture.member, form: Self.form(), csrf: .none).status == 403)
        #expect(try fixture.send("POST", "/recipes/\(id)/delete", as: fixture.member, csrf: .of(fixture.owner)).status == 403)
        let owner = try RecipeFixture.home(fixture)
        #expect(try RecipeFixture.recipes(fixture).recipe(id, in: owner.household).name == "Milk soup")
        #expect(try fixture.send("GET", "/recipes/\(id + 1)/edit", as: fixture.member).status == 404)
    }

    @Test func deletingGoesToTheTrashAndUndoBringsItBack() async throws {
        let fixture = try await HouseholdFixture()
        let id = try RecipeFixture.soup(fixture)
        let owner = try RecipeFixture.home(fixture)
        let recipes = RecipeFixture.recipes(fixture)
        let deleted = try fixture.send("POST", "/recipes/\(id)/delete", as: fixture.member)
        #expect(deleted.status == 303)
        #expect(deleted.header("Location") == "/recipes?trashed=\(id)")
        #expect(throws: InventoryError.notFound) { try recipes.recipe(id, in: owner.household) }
        #expect(try fixture.send("GET", "/recipes/\(id)/edit", as: fixture.member).status == 404)

        let undone = try fixture.send("POST", "/recipes/restore", as: fixture.member, form: [("ids", "\(id)")])
        #expect(undone.status == 303)
        #expect(undone.header("Location") == "/recipes/\(id)?restored=1")
        #expect(try recipes.recipe(id, in: owner.household).name == "Milk soup")
    }

    @Test func theTrashListsRecipesToRestoreOrDeleteForGood() async throws {
        let fixture = try await HouseholdFixture()
        let soup = try RecipeFixture.soup(fixture)
        let salad = try RecipeFixture.soup(fixture, name: "Salad")
        let owner = try RecipeFixture.home(fixture)
        let recipes = RecipeFixture.recipes(fixture)
        try recipes.trash(soup, in: owner.household, by: owner.memberId)
        try recipes.trash(salad, in: owner.household, by: owner.memberId)

        let trash = try fixture.send("GET", "/trash", as: fixture.viewer).text
        #expect(trash.contains("id=\"trash-recipes-heading\""))
        #expect(trash.contains("Milk soup"))
        #expect(trash.contains("Salad"))
        #expect(!trash.contains("The trash is empty."))
        // Viewers read the trash but get no buttons.
        #expect(!trash.contains("formaction=\"/trash/recipes/purge\""))
        #expect(try fixture.send("GET", "/trash", as: fixture.member).text.contains("formaction=\"/trash/recipes/purge\""))

        let restored = try fixture.send("POST", "/trash/recipes/restore", as: fixture.member, form: [("ids", "\(soup)")])
        #expect(restored.header("Location") == "/trash?recipes_restored=1")
        #expect(try fixture.send("GET", "/trash?recipes_restored=1", as: fixture.member).text.contains("Restored 1 recipe."))
        #expect(try recipes.recipe(soup, in: owner.household).name == "Milk soup")

        let purged = try fixture.send("POST", "/trash/recipes/purge", as: fixture.member, form: [("ids", "\(salad)")])
        #expect(purged.status == 303)
        #expect(try recipes.trashed(in: owner.household).isEmpty)
        #expect(try fixture.send("POST", "/recipes/restore", as: fixture.member, form: [("ids", "\(salad)")]).status != 500)
        #expect(throws: InventoryError.notFound) { try recipes.recipe(salad, in: owner.household) }
    }
}
