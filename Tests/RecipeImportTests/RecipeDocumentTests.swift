import Foundation
import Testing

@testable import RecipeImport

@Suite("Recipe documents")
struct RecipeDocumentTests {
    let page = URL(string: "https://kitchen.example/recipes/today")!

    func read(_ fixture: String) throws -> ImportedRecipe? {
        RecipeDocument.read(html: try FakeRecipeSite.fixture(fixture), baseURL: page)
    }

    @Test func aGraphWithHowToStepsAndAnImageObject() throws {
        let recipe = try #require(try read("graph.html"))
        #expect(recipe.name == "肉じゃが")
        #expect(recipe.servings == 4)
        #expect(recipe.ingredients.count == 7)
        #expect(recipe.ingredients[0] == ParsedIngredient(name: "牛こま切れ肉", amount: 200, unit: "g"))
        #expect(recipe.ingredients[3] == ParsedIngredient(name: "醤油", amount: 3, unit: "tbsp"))
        #expect(recipe.ingredients[6] == ParsedIngredient(name: "サラダ油", unit: "to_taste"))
        #expect(recipe.steps == "じゃがいもは皮をむいて一口大に切る。\n\n鍋に油を熱し、肉と玉ねぎを炒める。\n\nじゃがいもと調味料を加え、落とし蓋をして15分煮る。")
        #expect(recipe.imageURL?.absoluteString == "https://kitchen.example/images/nikujaga.jpg")
        #expect(recipe.sourceURL == page)
        #expect(recipe.tags == ["主菜"])
    }

    @Test func aTypeArrayAnImageArrayAndAYieldArray() throws {
        let recipe = try #require(try read("howtostep.html"))
        #expect(recipe.name == "Fluffy Pancakes")
        #expect(recipe.servings == 4)
        #expect(recipe.ingredients.map(\.name) == ["flour", "sugar", "salt", "large eggs", "milk", "butter"])
        #expect(recipe.ingredients[4].amount == 1.5)
        #expect(recipe.ingredients[5].note == "melted")
        #expect(recipe.steps.components(separatedBy: "\n\n").count == 3)
        #expect(recipe.imageURL?.absoluteString == "https://kitchen.example/images/pancakes.jpg")
        #expect(recipe.tags == ["Breakfast", "Sweet"], "split at commas, each once")
    }

    @Test func sectionsKeepTheirNamesAsParagraphs() throws {
        let recipe = try #require(try read("sections.html"))
        #expect(recipe.servings == 2)
        #expect(
            recipe.steps
                == "For the sauce\n\nMix the soy sauce, mirin and sugar.\n\nFor the chicken\n\nFry the chicken skin side down for 6 minutes.\n\nPour in the sauce and reduce until glossy."
        )
        #expect(recipe.imageURL?.absoluteString == "https://cdn.example/teriyaki.jpg")
    }

    @Test func instructionsInOneStringOfHTMLBecomePlainParagraphs() throws {
        let recipe = try #require(try read("string-instructions.html"))
        #expect(recipe.name == "Tomato & Egg Stir-fry")
        #expect(recipe.servings == 2)
        #expect(
            recipe.ingredients == [
                ParsedIngredient(name: "eggs", amount: 3, unit: "piece"),
                ParsedIngredient(name: "tomatoes", amount: 2, unit: "piece", note: "cut in wedges"),
                ParsedIngredient(name: "salt", amount: 0.5, unit: "tsp"),
            ])
        #expect(recipe.steps == "Beat the eggs with the salt.\n\nScramble the eggs & set aside.\n\nFry the tomatoes, add the eggs back and serve.")
        #expect(recipe.imageURL?.absoluteString == "https://img.example/tomato-egg.jpg")
    }

    @Test func theRecipeIsFoundInTheSecondOfTwoBlocks() throws {
        let recipe = try #require(try read("two-blocks.html"))
        #expect(recipe.name == "いちごバナナジュース")
        #expect(recipe.servings == 2)
        #expect(recipe.ingredients.map(\.name) == ["いちご", "バナナ", "牛乳"])
        #expect(recipe.ingredients[0].unit == "pack")
        #expect(recipe.steps == "いちごのへたを取る。\n\n全部をミキサーにかける。 なめらかになったらグラスに注ぐ。")
        #expect(recipe.imageURL?.absoluteString == "https://kitchen.example/recipes/images/juice.jpg")
    }

    @Test func aRecipeNestedAsMainEntityWithAFullTypeAndContentUrl() throws {
        let recipe = try #require(try read("main-entity.html"))
        #expect(recipe.name == "Miso Soup")
        #expect(recipe.servings == 3)
        #expect(recipe.steps == "Warm the dashi.\n\nAdd the tofu, then dissolve the miso\nwithout boiling.")
        #expect(recipe.imageURL?.absoluteString == "https://cdn.example/miso.jpg")
    }

    @Test func aPageWithoutRecipeDataGivesNone() throws {
        #expect(try read("no-recipe.html") == nil)
        #expect(RecipeDocument.read(html: "<html><body><h1>Curry</h1></body></html>", baseURL: page) == nil)
        #expect(RecipeDocument.read(html: #"<script type="application/ld+json">{not json</script>"#, baseURL: page) == nil)
    }

    @Test func imagesThatAreNoWebAddressAreDropped() {
        let html = #"<script type="application/ld+json">{"@type":"Recipe","name":"X","image":"javascript:alert(1)"}</script>"#
        #expect(RecipeDocument.read(html: html, baseURL: page)?.imageURL == nil)
        let relative = #"<script type="application/ld+json">{"@type":"Recipe","name":"X","image":"/x.jpg"}</script>"#
        #expect(RecipeDocument.read(html: relative, baseURL: nil)?.imageURL == nil, "a relative picture without a page address")
    }

    // MARK: - Pasted text

    @Test func pastedHTMLOfAPage() throws {
        let recipe = try #require(RecipeDocument.read(text: try FakeRecipeSite.fixture("graph.html")))
        #expect(recipe.name == "肉じゃが")
        #expect(recipe.sourceURL == nil)
        #expect(recipe.imageURL == nil, "a relative picture cannot be placed without the page's address")
    }

    @Test func aPastedJSONLDDocumentWithItsAddress() throws {
        let json =
            #"{"@context":"https://schema.org","@type":"Recipe","name":"Onigiri","url":"https://kitchen.example/onigiri","image":"/o.jpg","recipeIngredient":["ご飯 300g","塩 少々"],"recipeInstructions":"Shape the rice."}"#
        let recipe = try #require(RecipeDocument.read(text: "  \n" + json + "\n"))
        #expect(recipe.name == "Onigiri")
        #expect(recipe.sourceURL?.absoluteString == "https://kitchen.example/onigiri")
        #expect(recipe.imageURL?.absoluteString == "https://kitchen.example/o.jpg")
        #expect(recipe.ingredients == [ParsedIngredient(name: "ご飯", amount: 300, unit: "g"), ParsedIngredient(name: "塩", unit: "pinch")])
        #expect(RecipeDocument.read(text: #"{"@type":"Article","name":"News"}"#) == nil)
    }

    @Test func plainTextInJapanese() throws {
        let text = """
            肉じゃが（4人分）

            材料
            牛こま切れ肉 200g
            じゃがいも 3個
            醤油 大さじ3

            作り方
            1. じゃがいもを切る。
            2. 肉を炒める。

            3. 煮る。
            """
        let recipe = try #require(RecipeDocument.read(text: text))
        #expect(recipe.name == "肉じゃが")
        #expect(recipe.servings == 4)
        #expect(recipe.ingredients.map(\.name) == ["牛こま切れ肉", "じゃがいも", "醤油"])
        #expect(recipe.steps == "1. じゃがいもを切る。\n\n2. 肉を炒める。\n\n3. 煮る。")
        #expect(recipe.imageURL == nil && recipe.sourceURL == nil)
    }

    @Test func plainTextInEnglishWithAStepsHeadingRightAfterTheIngredients() throws {
        let text = "Pancakes\nServes 4\nIngredients:\n2 cups flour\n2 eggs\nSteps:\nMix everything.\nFry."
        let recipe = try #require(RecipeDocument.read(text: text))
        #expect(recipe.name == "Pancakes")
        #expect(recipe.servings == 4)
        #expect(recipe.ingredients == [ParsedIngredient(name: "flour", amount: 2, unit: "cup"), ParsedIngredient(name: "eggs", amount: 2, unit: "piece")])
        #expect(recipe.steps == "Mix everything.\n\nFry.")
    }

    @Test func plainTextWithoutHeadingsSplitsAtTheFirstBlankLine() throws {
        let recipe = try #require(RecipeDocument.read(text: "Toast\n1 slice bread\nbutter\n\nToast the bread.\nButter it."))
        #expect(recipe.ingredients.map(\.name) == ["bread", "butter"])
        #expect(recipe.steps == "Toast the bread.\n\nButter it.")
    }

    @Test func aNameAloneIsNoRecipe() {
        #expect(RecipeDocument.read(text: "Just a title") == nil)
        #expect(RecipeDocument.read(text: "   \n\n ") == nil)
    }

    @Test func aHostilePageIsCutToTheLimits() {
        let many = (0..<500).map { "\"\($0) g salt\"" }.joined(separator: ",")
        let html =
            #"<script type="application/ld+json">{"@type":"Recipe","name":"\#(String(repeating: "x", count: 5000))","recipeIngredient":[\#(many)]}</script>"#
        let recipe = RecipeDocument.read(html: html, baseURL: nil)
        #expect(recipe?.name.count == ImportedRecipe.maxNameLength)
        #expect(recipe?.ingredients.count == ImportedRecipe.maxIngredients)
        let long = String(repeating: "y", count: (IngredientLine.maxLineLength - 10) / 2)
        let html2 = #"<script type="application/ld+json">{"@type":"Recipe","name":"Soup","recipeIngredient":["1 \#(long), \#(long)"]}</script>"#
        let ingredient = RecipeDocument.read(html: html2, baseURL: nil)?.ingredients.first
        #expect(ingredient?.name.count == ImportedRecipe.maxNameLength)
        #expect(ingredient?.note.count == ImportedRecipe.maxNoteLength)
    }
}
