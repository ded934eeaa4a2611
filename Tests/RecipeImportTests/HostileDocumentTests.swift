import Foundation
import Testing

@testable import RecipeImport

/// Pages and pastes made to hold a server thread or stop the server (issue 22, items 1 and 2): deep
/// nesting, many values, numbers past Int64, long lines. Each completes, with a sensible recipe or
/// none, and the work is counted (`JSONLDBudget.visited`), never timed.
@Suite("Hostile recipe documents")
struct HostileDocumentTests {
    /// `leaf` wrapped in `depth` arrays: `[[[…leaf…]]]`.
    static func nested(_ leaf: String, depth: Int) -> String {
        String(repeating: "[", count: depth) + leaf + String(repeating: "]", count: depth)
    }

    /// A recipe whose `field` is `value` (and, unless that is its ingredients, one onion), as pasted JSON-LD.
    static func recipe(_ field: String, _ value: String) -> String {
        let onion = field == "recipeIngredient" ? "" : #""recipeIngredient":["1 onion"],"#
        return #"{"@context":"https://schema.org","@type":"Recipe","name":"Soup",\#(onion)"\#(field)":\#(value)}"#
    }

    /// The fields a walk reads, each with a value the walk would find if it were not so deep.
    static let nestedFields: [(field: String, leaf: String)] = [
        ("recipeYield", #""4""#), ("image", #""https://kitchen.example/soup.jpg""#), ("recipeInstructions", #""Boil.""#),
        ("recipeIngredient", #""2 carrots""#), ("recipeCategory", #""Soup""#), ("recipeCuisine", #""French""#), ("keywords", #""quick""#),
    ]

    /// Before the fix, `recipeYield` and `image` were walked with `lazy.compactMap { }.first`, which
    /// runs its closure twice per level: 2^40 calls at depth 40. Now each level is looked at once, and
    /// no walk goes past `JSONLDBudget.maxDepth`.
    @Test(arguments: nestedFields)
    func aValueNestedFortyDeepIsLookedAtOncePerLevelAtMost(field: String, leaf: String) throws {
        let json = try #require(JSONLDBlocks.json(Self.recipe(field, Self.nested(leaf, depth: 40))))
        var budget = JSONLDBudget()
        let object = try #require(RecipeJSONLD.find(in: json, budget: &budget))
        let recipe = RecipeJSONLD.read(object, baseURL: nil, budget: &budget)
        #expect(recipe.name == "Soup")
        #expect(budget.visited <= 3 * (JSONLDBudget.maxDepth + 1), "visited \(budget.visited) values")
    }

    /// The probe's case: 60 deep, pasted. A sensible recipe, without what was buried.
    @Test(arguments: nestedFields)
    func aValueNestedSixtyDeepGivesTheRecipeWithoutIt(field: String, leaf: String) throws {
        let recipe = try #require(RecipeDocument.read(text: Self.recipe(field, Self.nested(leaf, depth: 60))))
        #expect(recipe.name == "Soup")
        #expect(recipe.servings == nil && recipe.imageURL == nil && recipe.steps.isEmpty && recipe.tags.isEmpty)
        #expect(recipe.ingredients.map(\.name) == (field == "recipeIngredient" ? [] : ["onion"]))
    }

    /// Nested in objects instead of arrays (`{"url":{"url":…}}`, `HowToSection`s in sections).
    @Test func objectsNestedSixtyDeepGiveTheRecipeWithoutThem() throws {
        let image = String(repeating: #"{"url":"#, count: 60) + #""https://kitchen.example/a.jpg""# + String(repeating: "}", count: 60)
        let section =
            String(repeating: #"{"@type":"HowToSection","name":"Part","itemListElement":"#, count: 60) + #""Stir.""#
            + String(repeating: "}", count: 60)
        let recipe = try #require(RecipeDocument.read(text: Self.recipe("image", image)))
        #expect(recipe.imageURL == nil)
        let sections = try #require(RecipeDocument.read(text: Self.recipe("recipeInstructions", section)))
        #expect(sections.name == "Soup")
        #expect(!sections.steps.contains("Stir."))
        #expect(sections.steps.components(separatedBy: "\n\n").count <= JSONLDBudget.maxDepth + 1)
    }

    /// 10,000 deep (and a 900 KB paste of `[`, 400,000 deep): refused before it is parsed, so
    /// neither the parser nor freeing the value comes near a thread's stack.
    @Test(arguments: [10_000, 400_000])
    func nestingPastTheLimitIsNoRecipe(depth: Int) throws {
        for (field, leaf) in Self.nestedFields {
            let text = Self.recipe(field, Self.nested(leaf, depth: depth))
            #expect(!JSONLDBlocks.nestsWithinLimit(Array(text.utf8)))
            #expect(RecipeDocument.read(text: text) == nil, "\(field)")
            #expect(RecipeDocument.read(html: #"<script type="application/ld+json">\#(text)</script>"#, baseURL: nil) == nil, "\(field)")
        }
        #expect(RecipeDocument.read(text: String(repeating: "[", count: depth)) == nil)
    }

    @Test func bracketsInStringsDoNotCountAsNesting() {
        let text = Self.recipe("description", "\"" + String(repeating: "[{", count: 500) + #"\"]""#)
        #expect(JSONLDBlocks.nestsWithinLimit(Array(text.utf8)))
        #expect(RecipeDocument.read(text: text)?.name == "Soup")
        #expect(JSONLDBlocks.nestsWithinLimit(Array(Self.nested("1", depth: JSONLDBlocks.maxNesting).utf8)))
        #expect(!JSONLDBlocks.nestsWithinLimit(Array(Self.nested("1", depth: JSONLDBlocks.maxNesting + 1).utf8)))
    }

    /// Many values before the recipe: the walks stop at `JSONLDBudget.maxValues`.
    @Test func aDocumentWithMoreValuesThanTheBudgetIsNotWalkedToTheEnd() throws {
        let filler = Array(repeating: "0", count: JSONLDBudget.maxValues).joined(separator: ",")
        let text = #"{"@graph":[\#(filler),{"@type":"Recipe","name":"Soup","recipeIngredient":["1 onion"]}]}"#
        let json = try #require(JSONLDBlocks.json(text))
        var budget = JSONLDBudget()
        #expect(RecipeJSONLD.find(in: json, budget: &budget) == nil)
        #expect(budget.visited == JSONLDBudget.maxValues)
        #expect(RecipeDocument.read(text: text) == nil)
        // Within the budget, a recipe after many values is found.
        let fewer = Array(repeating: "0", count: 1000).joined(separator: ",")
        #expect(RecipeDocument.read(text: #"{"@graph":[\#(fewer),{"@type":"Recipe","name":"Soup","recipeIngredient":["1 onion"]}]}"#)?.name == "Soup")
    }

    /// Thousands of ingredient lines: only as many as a recipe keeps are parsed.
    @Test func onlyTheIngredientLinesARecipeKeepsAreRead() throws {
        let lines = (1...20_000).map { #""\#($0) g flour""# }.joined(separator: ",")
        let recipe = try #require(RecipeDocument.read(text: Self.recipe("recipeIngredient", "[\(lines)]")))
        #expect(recipe.ingredients.count == ImportedRecipe.maxIngredients)
        #expect(recipe.ingredients.first == ParsedIngredient(name: "flour", amount: 1, unit: "g"))
        let pasted = "Bread\n\n" + (1...20_000).map { "\($0) g flour" }.joined(separator: "\n") + "\n\nBake."
        let plain = try #require(RecipeDocument.read(text: pasted))
        #expect(plain.ingredients.count == ImportedRecipe.maxIngredients)
        #expect(plain.steps == "Bake.")
    }

    /// One ingredient line of 300,000 "約" ("about"): each starting place used to read the whole run
    /// again (quadratic). Only the first `IngredientLine.maxLineLength` characters are read, and a
    /// run of 約 is read once.
    @Test func aVeryLongIngredientLineIsReadOnlyAsFarAsALineGoes() {
        let parsed = IngredientLine.parse("塩" + String(repeating: "約", count: 300_000) + "1g")
        #expect(parsed.name.count <= IngredientLine.maxLineLength)
        #expect(parsed.name.hasPrefix("塩約"))
        #expect(IngredientLine.parse(String(repeating: "1 ", count: 200_000) + "g flour").name.count <= IngredientLine.maxLineLength)
        #expect(IngredientLine.parse("塩" + String(repeating: "約", count: 400) + "1g") == ParsedIngredient(name: "塩", amount: 1, unit: "g"))
        #expect(IngredientLine.parse("flour 約 200g") == ParsedIngredient(name: "flour", amount: 200, unit: "g"))
        #expect(IngredientLine.parse("塩・こしょう 各少々") == ParsedIngredient(name: "塩・こしょう", unit: "pinch"))
    }

    // MARK: - Numbers from outside

    @Test(arguments: ["1e20", "-1e20", "1e308", "-1e308", "1.7976931348623157e308", "0", "0.4", "1001", "9223372036854775807", "18446744073709551616"])
    func aYieldThatIsNoCountOfServingsIsLeftOut(yield: String) throws {
        let recipe = try #require(RecipeDocument.read(text: Self.recipe("recipeYield", yield)))
        #expect(recipe.name == "Soup")
        #expect(recipe.servings == nil)
        let listed = try #require(RecipeDocument.read(text: Self.recipe("recipeYield", "[\(yield), \"4 servings\"]")))
        #expect(listed.servings == 4, "the next value of the list is read")
    }

    @Test func servingsAreBoundedWhileTheyAreStillADouble() {
        #expect(
            [Double.nan, .infinity, -.infinity, 1e20, -1e20, 0, 0.49, 1000.5, Double.greatestFiniteMagnitude].map(Servings.count)
                == Array(repeating: Int?.none, count: 9))
        #expect([1, 4.4, 4.5, 999.6, 1000].map(Servings.count) == [1, 4, 5, 1000, 1000])
        #expect(RecipeDocument.read(text: Self.recipe("recipeYield", #""99999999999999999999 servings""#))?.servings == nil)
        #expect(RecipeDocument.read(text: Self.recipe("recipeYield", #""NaN""#))?.servings == nil)
        #expect(RecipeDocument.read(text: Self.recipe("recipeYield", #""Infinity""#))?.servings == nil)
        #expect(RecipeDocument.read(text: Self.recipe("recipeYield", "6"))?.servings == 6)
    }

    /// An amount past Zaiko's largest quantity is kept as written, in the note, for the person to correct.
    @Test(arguments: [
        ("99999999999999999999 g flour", "flour", "99999999999999999999 g"),
        ("flour 99999999999999999999g", "flour", "99999999999999999999g"),
        ("1" + String(repeating: "0", count: 400) + " g sugar", "sugar", "1" + String(repeating: "0", count: 400) + " g"),
        ("99999999999999 oz butter", "butter", "99999999999999 oz"),
        ("2000000 eggs", "eggs", "2000000"),
        ("大さじ99999999999999999999 醤油", "醤油", "大さじ99999999999999999999"),
    ])
    func anAmountPastTheLargestQuantityIsKeptAsWritten(line: String, name: String, note: String) {
        let parsed = IngredientLine.parse(line)
        #expect(parsed == ParsedIngredient(name: name, amount: nil, unit: nil, note: note))
    }

    @Test func theLargestQuantityIsStillAnAmount() {
        #expect(IngredientLine.parse("1000000 g flour") == ParsedIngredient(name: "flour", amount: 1_000_000, unit: "g"))
    }

    @Test func aPastedRecipeWithAHugeAmountIsARecipe() throws {
        let recipe = try #require(RecipeDocument.read(text: "Cake\n\n99999999999999999999 g flour\n2 eggs\n\nMix."))
        #expect(
            recipe.ingredients == [ParsedIngredient(name: "flour", note: "99999999999999999999 g"), ParsedIngredient(name: "eggs", amount: 2, unit: "piece")])
    }

    // MARK: - Keywords

    @Test func keywordsBecomeTagsWithTheCategoryAndCuisine() throws {
        let text = #"""
            {"@type":"Recipe","name":"Soup","recipeIngredient":["1 onion"],"recipeCategory":"Dinner","recipeCuisine":["French"],
             "keywords":"quick, dinner,  weeknight、onion"}
            """#
        let recipe = try #require(RecipeDocument.read(text: text))
        #expect(recipe.tags == ["Dinner", "French", "quick", "weeknight", "onion"], "each once, whatever its case")
        let listed = try #require(RecipeDocument.read(text: Self.recipe("keywords", #"["簡単", "時短, 和食"]"#)))
        #expect(listed.tags == ["簡単", "時短", "和食"])
    }

    @Test func keywordsAreBoundedLikeOtherTags() throws {
        let long = String(repeating: "k", count: 300)
        let many = (1...500).map { "word\($0)" }.joined(separator: ", ")
        let recipe = try #require(RecipeDocument.read(text: Self.recipe("keywords", "\"\(long), \(many)\"")))
        #expect(recipe.tags.count == ImportedRecipe.maxTags)
        #expect(recipe.tags.allSatisfy { $0.count <= ImportedRecipe.maxTagLength })
        #expect(recipe.tags.first == String(repeating: "k", count: ImportedRecipe.maxTagLength))
    }
}
