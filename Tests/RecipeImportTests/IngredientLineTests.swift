import Testing

@testable import RecipeImport

/// One line and how it must be split.
struct LineCase: CustomTestStringConvertible, Sendable {
    let line: String
    let expected: ParsedIngredient
    var testDescription: String { line }

    init(_ line: String, _ name: String, _ amount: Double? = nil, _ unit: String? = nil, note: String = "") {
        self.line = line
        expected = ParsedIngredient(name: name, amount: amount, unit: unit, note: note)
    }
}

let japaneseLines: [LineCase] = [
    LineCase("200g 鶏もも肉", "鶏もも肉", 200, "g"),
    LineCase("鶏もも肉 200g", "鶏もも肉", 200, "g"),
    LineCase("鶏もも肉　200ｇ", "鶏もも肉", 200, "g"),
    LineCase("鶏もも肉２００ｇ", "鶏もも肉", 200, "g"),
    LineCase("大さじ2 醤油", "醤油", 2, "tbsp"),
    LineCase("醤油 大さじ2", "醤油", 2, "tbsp"),
    LineCase("醤油大さじ２", "醤油", 2, "tbsp"),
    LineCase("小さじ1/2 塩", "塩", 0.5, "tsp"),
    LineCase("砂糖 大さじ1と1/2", "砂糖", 1.5, "tbsp"),
    LineCase("みりん 大1", "みりん", 1, "tbsp"),
    LineCase("酒 小1/2", "酒", 0.5, "tsp"),
    LineCase("醤油 大さじ1強", "醤油", 1, "tbsp", note: "大さじ1強"),
    LineCase("塩 少々", "塩", nil, "pinch"),
    LineCase("塩少々", "塩", nil, "pinch"),
    LineCase("塩 ひとつまみ", "塩", 1, "pinch"),
    LineCase("塩・こしょう 各少々", "塩・こしょう", nil, "pinch"),
    LineCase("サラダ油 適量", "サラダ油", nil, "to_taste"),
    LineCase("万能ねぎ 適宜", "万能ねぎ", nil, "to_taste"),
    LineCase("七味唐辛子 お好みで", "七味唐辛子", nil, "to_taste"),
    LineCase("卵 2個", "卵", 2, "piece"),
    LineCase("卵2個", "卵", 2, "piece"),
    LineCase("卵 1個（溶いておく）", "卵", 1, "piece", note: "溶いておく"),
    LineCase("玉ねぎ（みじん切り） 1/2個", "玉ねぎ", 0.5, "piece", note: "みじん切り"),
    LineCase("玉ねぎ 1個半", "玉ねぎ", 1.5, "piece"),
    LineCase("にんじん 1本", "にんじん", 1, "piece"),
    LineCase("牛乳 1本", "牛乳", 1, "piece"),
    LineCase("豆腐 1丁", "豆腐", 1, "piece"),
    LineCase("豆腐 半丁", "豆腐", 0.5, "piece"),
    LineCase("しょうが 1かけ", "しょうが", 1, "piece"),
    LineCase("にんにく 2片", "にんにく", 2, "piece"),
    LineCase("キャベツ 1/4玉", "キャベツ", 0.25, "piece"),
    LineCase("ほうれん草 1束", "ほうれん草", 1, "piece"),
    LineCase("ヨーグルト 1パック", "ヨーグルト", 1, "pack"),
    LineCase("ツナ缶 1缶", "ツナ缶", 1, "can"),
    LineCase("もやし 1袋", "もやし", 1, "bag"),
    LineCase("牛乳 200ml", "牛乳", 200, "ml"),
    LineCase("牛乳 200ｍｌ", "牛乳", 200, "ml"),
    LineCase("水 200cc", "水", 200, "ml"),
    LineCase("水 200㏄", "水", 200, "ml"),
    LineCase("水 1.5L", "水", 1.5, "L"),
    LineCase("牛乳 1カップ", "牛乳", 1, "cup"),
    LineCase("牛乳 カップ1/2", "牛乳", 0.5, "cup"),
    LineCase("じゃがいも 1.5kg", "じゃがいも", 1.5, "kg"),
    LineCase("豚バラ肉 200g(薄切り)", "豚バラ肉", 200, "g", note: "薄切り"),
    LineCase("豚ひき肉 約300g", "豚ひき肉", 300, "g"),
    LineCase("バター 10g程度", "バター", 10, "g"),
    LineCase("卵 2〜3個", "卵", 2, "piece", note: "2-3個"),
    LineCase("米 2合", "米", nil, nil, note: "2合"),
    LineCase("★砂糖 大さじ1", "砂糖", 1, "tbsp"),
    LineCase("・しょうゆ……大さじ2", "しょうゆ", 2, "tbsp"),
    LineCase("大根 10cm", "大根 10cm"),
    LineCase("だし汁", "だし汁"),
]

let englishLines: [LineCase] = [
    LineCase("2 cups flour", "flour", 2, "cup"),
    LineCase("2 cups of flour", "flour", 2, "cup"),
    LineCase("1 onion, chopped", "onion", 1, "piece", note: "chopped"),
    LineCase("½ tsp salt", "salt", 0.5, "tsp"),
    LineCase("1½ cups sugar", "sugar", 1.5, "cup"),
    LineCase("1 1/2 cups milk", "milk", 1.5, "cup"),
    LineCase("1-1/2 cups milk", "milk", 1.5, "cup"),
    LineCase("1.5 kg potatoes", "potatoes", 1.5, "kg"),
    LineCase("1,5 kg potatoes", "potatoes", 1.5, "kg"),
    LineCase("1,000 g rice", "rice", 1000, "g"),
    LineCase("2-3 cloves garlic", "garlic", 2, "piece", note: "2-3 cloves"),
    LineCase("2 to 3 cloves of garlic, minced", "garlic", 2, "piece", note: "2 to 3 cloves, minced"),
    LineCase("200 mL milk", "milk", 200, "ml"),
    LineCase("200ml milk", "milk", 200, "ml"),
    LineCase("1 L water", "water", 1, "L"),
    LineCase("1 litre stock", "stock", 1, "L"),
    LineCase("salt to taste", "salt", nil, "to_taste"),
    LineCase("Salt and pepper, to taste", "Salt and pepper", nil, "to_taste"),
    LineCase("olive oil, as needed", "olive oil", nil, "to_taste"),
    LineCase("a pinch of salt", "salt", 1, "pinch"),
    LineCase("pinch of nutmeg", "nutmeg", 1, "pinch"),
    LineCase("2 pinches chili flakes", "chili flakes", 2, "pinch"),
    LineCase("an onion", "onion", 1, "piece"),
    LineCase("two eggs", "eggs", 2, "piece"),
    LineCase("2 large eggs", "large eggs", 2, "piece"),
    LineCase("3 eggs", "eggs", 3, "piece"),
    LineCase("1 tbsp. olive oil", "olive oil", 1, "tbsp"),
    LineCase("2 Tablespoons butter, melted", "butter", 2, "tbsp", note: "melted"),
    LineCase("1 teaspoon vanilla extract", "vanilla extract", 1, "tsp"),
    LineCase("1/4 cup honey", "honey", 0.25, "cup"),
    LineCase("¾ cup water", "water", 0.75, "cup"),
    LineCase("⅓ cup cream", "cream", 1.0 / 3.0, "cup"),
    LineCase("⅔ cup oats", "oats", 2.0 / 3.0, "cup"),
    LineCase("1 (400g) can chopped tomatoes", "chopped tomatoes", 1, "can", note: "400g"),
    LineCase("2 cans coconut milk", "coconut milk", 2, "can"),
    LineCase("1 package cream cheese", "cream cheese", 1, "pack"),
    LineCase("1 bottle white wine", "white wine", 1, "bottle"),
    LineCase("1 bag spinach", "spinach", 1, "bag"),
    LineCase("1 box pasta", "pasta", 1, "box"),
    LineCase("1 lb ground beef", "ground beef", 454, "g", note: "1 lb"),
    LineCase("8 oz cheddar, grated", "cheddar", 227, "g", note: "8 oz, grated"),
    LineCase("3 slices bacon", "bacon", 3, "piece"),
    LineCase("1 garlic clove", "garlic clove", 1, "piece"),
    LineCase("Butter (50g)", "Butter", 50, "g"),
    LineCase("Fresh parsley (optional)", "Fresh parsley", note: "optional"),
    LineCase("- 2 cups rice", "rice", 2, "cup"),
    LineCase("a little salt", "a little salt"),
    LineCase("Juice of 1 lemon", "Juice of 1 lemon"),
    LineCase("1.5 kg", "1.5 kg"),
    LineCase("", ""),
]

@Suite("Ingredient lines")
struct IngredientLineTests {
    @Test(arguments: japaneseLines + englishLines)
    func splits(_ example: LineCase) {
        let parsed = IngredientLine.parse(example.line)
        #expect(parsed.name == example.expected.name)
        #expect(parsed.unit == example.expected.unit)
        #expect(parsed.note == example.expected.note)
        switch (parsed.amount, example.expected.amount) {
        case (nil, nil): break
        case (let got?, let want?): #expect(abs(got - want) < 0.0001, "amount \(got), expected \(want)")
        default: Issue.record("amount \(String(describing: parsed.amount)), expected \(String(describing: example.expected.amount))")
        }
    }

    @Test func theTableHasAtLeastSixtyLinesInBothLanguages() {
        #expect(japaneseLines.count >= 30)
        #expect(englishLines.count >= 30)
        #expect(japaneseLines.count + englishLines.count >= 60)
    }

    @Test func everyUnitIsARecipeUnit() {
        for example in japaneseLines + englishLines {
            if let unit = IngredientLine.parse(example.line).unit { #expect(IngredientLine.unitCodes.contains(unit), "\(example.line)") }
        }
    }
}
