import GRDB

/// The demo household's recipes: Japanese and English household dishes and juices whose
/// ingredients are named like the demo's items, so that some are ready, some miss one ingredient
/// (じゃがいも, flour: no demo item has those names) and some use what expires soon.
extension DemoHousehold {
    typealias DemoIngredient = (name: String, amount: Double?, unit: String?)

    struct DemoRecipe {
        let name: String
        let tags: [String]
        let servings: Int
        let steps: String
        let ingredients: [DemoIngredient]
        var produce: RecipeProduce? = nil
    }

    static let recipes: [DemoRecipe] = [
        DemoRecipe(
            name: "親子丼", tags: ["和食", "丼"], servings: 2, steps: "鶏肉を一口大に切る。\n\n長ねぎと醤油で煮て、溶き卵でとじる。\n\nごはんにのせる。",
            ingredients: [("鶏もも肉", 200, "g"), ("卵", nil, nil), ("長ねぎ", 1, "piece"), ("醤油", 2, "tbsp"), ("米", 0.3, "kg")]),
        DemoRecipe(
            name: "カレーライス", tags: ["洋食"], servings: 4, steps: "肉と野菜を炒める。\n\n水を加えて煮込み、ルーを溶かす。",
            ingredients: [("豚バラ肉", 250, "g"), ("にんじん", nil, nil), ("じゃがいも", 2, "piece"), ("カレールー", nil, nil), ("米", 0.45, "kg")]),
        DemoRecipe(
            name: "豆腐とねぎの味噌汁", tags: ["和食", "汁物"], servings: 2, steps: "だしを温め、豆腐とねぎを入れる。\n\n火を止めて味噌を溶く。",
            ingredients: [("豆腐", 1, "pack"), ("長ねぎ", 1, "piece"), ("味噌", 2, "tbsp")]),
        DemoRecipe(
            name: "鮭の塩焼き", tags: ["和食", "魚"], servings: 2, steps: "鮭に塩をふって10分置く。\n\nグリルで両面を焼く。",
            ingredients: [("鮭の切り身", 1, "pack"), ("塩", nil, "pinch")]),
        DemoRecipe(
            name: "さばの味噌煮", tags: ["和食", "魚"], servings: 2, steps: "さばに熱湯をかける。\n\n味噌と醤油で煮る。",
            ingredients: [("さば", 1, "piece"), ("味噌", 2, "tbsp"), ("醤油", 1, "tsp"), ("長ねぎ", 1, "piece")]),
        DemoRecipe(
            name: "ほうれん草のおひたし", tags: ["和食", "副菜"], servings: 2, steps: "ほうれん草をゆでて水にとる。\n\n絞って切り、醤油をかける。",
            ingredients: [("ほうれん草", 1, "bag"), ("醤油", 2, "tsp")]),
        DemoRecipe(
            name: "納豆ごはん", tags: ["和食", "朝ごはん"], servings: 1, steps: "納豆を混ぜてごはんにのせる。",
            ingredients: [("納豆", 1, "pack"), ("米", 0.15, "kg"), ("長ねぎ", nil, nil)]),
        DemoRecipe(
            name: "豚キャベツ炒め", tags: ["中華"], servings: 2, steps: "豚肉を炒め、キャベツを加える。\n\n醤油とごま油で味をととのえる。",
            ingredients: [("キャベツ", 0.5, "piece"), ("豚バラ肉", 200, "g"), ("ごま油", 1, "tbsp"), ("醤油", 1, "tbsp")]),
        DemoRecipe(
            name: "トマたま炒め", tags: ["中華", "副菜"], servings: 2, steps: "卵を炒めて取り出す。\n\nトマトを炒めて卵を戻す。",
            ingredients: [("トマト", 2, "piece"), ("卵", nil, nil), ("ごま油", 1, "tbsp")]),
        DemoRecipe(
            name: "肉うどん", tags: ["和食", "麺"], servings: 2, steps: "ひき肉を醤油で煮る。\n\nゆでたうどんにのせ、ねぎを散らす。",
            ingredients: [("うどん", 2, "pack"), ("牛ひき肉", 150, "g"), ("長ねぎ", 1, "piece"), ("醤油", 2, "tbsp")]),
        DemoRecipe(
            name: "ツナマヨおにぎり", tags: ["和食", "お弁当"], servings: 2, steps: "ツナとマヨネーズを混ぜる。\n\nごはんで包んでにぎる。",
            ingredients: [("ツナ缶", 1, "can"), ("マヨネーズ", 2, "tbsp"), ("米", 0.3, "kg")]),
        DemoRecipe(
            name: "焼き餃子", tags: ["中華"], servings: 2, steps: "フライパンに並べて焼き、水を入れて蒸し焼きにする。",
            ingredients: [("冷凍餃子", 1, "pack"), ("ごま油", 1, "tsp")]),
        DemoRecipe(
            name: "インスタントラーメン", tags: ["麺"], servings: 1, steps: "ゆでて、卵とねぎをのせる。",
            ingredients: [("インスタントラーメン", 1, "pack"), ("卵", nil, nil), ("長ねぎ", nil, nil)]),
        DemoRecipe(
            name: "りんごジュース", tags: ["ジュース"], servings: 1, steps: "りんごを切ってミキサーにかける。",
            ingredients: [("りんご", 2, "piece")],
            produce: RecipeProduce(name: "りんごジュース", quantity: 1, unit: .bottle, kind: .drinks, dueDays: 1)),
        DemoRecipe(
            name: "バナナミルク", tags: ["ジュース", "朝ごはん"], servings: 1, steps: "バナナと牛乳をミキサーにかける。",
            ingredients: [("バナナ", 1, "piece"), ("牛乳", nil, nil)],
            produce: RecipeProduce(name: "バナナミルク", quantity: 1, unit: .bottle, kind: .drinks, dueDays: 1)),
        DemoRecipe(
            name: "にんじんとりんごのジュース", tags: ["ジュース"], servings: 1, steps: "にんじんとりんごを切ってミキサーにかける。",
            ingredients: [("にんじん", nil, nil), ("りんご", 1, "piece")],
            produce: RecipeProduce(name: "にんじんりんごジュース", quantity: 1, unit: .bottle, kind: .drinks, dueDays: 1)),
        DemoRecipe(
            name: "Chicken teriyaki", tags: ["Japanese", "weeknight"], servings: 2, steps: "Brown the chicken.\n\nAdd soy sauce and glaze.",
            ingredients: [("Chicken thighs", 300, "g"), ("Soy sauce", 2, "tbsp"), ("Rice", 0.3, "kg")]),
        DemoRecipe(
            name: "Tomato salad", tags: ["salad"], servings: 2, steps: "Slice the tomatoes.\n\nDress with sesame oil and soy sauce.",
            ingredients: [("Tomatoes", 2, "piece"), ("Sesame oil", 1, "tbsp"), ("Soy sauce", 1, "tsp")]),
        DemoRecipe(
            name: "Banana yogurt", tags: ["breakfast"], servings: 1, steps: "Slice the banana over the yogurt.",
            ingredients: [("Bananas", 1, "piece"), ("Yogurt", 1, "pack")]),
        DemoRecipe(
            name: "Apple pancakes", tags: ["breakfast"], servings: 2, steps: "Mix flour, eggs and milk.\n\nAdd sliced apple and fry.",
            ingredients: [("Flour", 200, "g"), ("Eggs", nil, nil), ("Milk", nil, nil), ("Apples", 1, "piece")]),
    ]

    /// The curated recipes first; past them (benchmarks), recipes of ten products each.
    static func insertRecipes(_ db: Database, householdId: Household.ID, count: Int, random: inout SeededRandom, at time: Timestamp) throws {
        let stock = try Folder.ID.fetchOne(
            db, sql: "SELECT id FROM folder WHERE household_id = ? AND kind = 'stock' ORDER BY position LIMIT 1", arguments: [householdId])
        for index in 0..<count {
            let recipe: DemoRecipe
            if index < recipes.count {
                recipe = recipes[index]
            } else {
                // Ten different products: a recipe lists an ingredient once.
                var pool = products
                let picks = (0..<10).map { _ in pool.remove(at: random.next(below: pool.count)) }
                recipe = DemoRecipe(
                    name: "献立 \(index + 1)", tags: ["献立"], servings: 2, steps: "材料を切る。\n\n炒めて味をととのえる。",
                    ingredients: picks.map { ($0.ja, $0.quantity, $0.unit) })
            }
            var produce = recipe.produce
            produce?.folderId = stock
            let row = try Recipe.Draft(
                householdId: householdId, name: recipe.name, servings: recipe.servings, steps: recipe.steps, produce: produce, createdAt: time,
                updatedAt: time
            ).insertAndFetch(db, as: Recipe.self)
            for (position, ingredient) in recipe.ingredients.enumerated() {
                try RecipeIngredient.Draft(
                    householdId: householdId, recipeId: row.id, position: position, name: ingredient.name, amount: ingredient.amount, unit: ingredient.unit
                ).insert(db)
            }
            for tag in recipe.tags { try RecipeTag(recipeId: row.id, householdId: householdId, tag: tag).insert(db) }
        }
    }
}
