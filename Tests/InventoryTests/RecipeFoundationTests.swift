import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// The recipe foundation: units, how stock stands against a need, and matching ingredients to items.
struct RecipeFoundationTests {
    // MARK: - Units

    @Test(arguments: [
        (200.0, IngredientUnit.g, IngredientUnit.kg, 0.2 as Double?),
        (1.5, .kg, .g, 1500),
        (250, .ml, .L, 0.25),
        (2, .L, .ml, 2000),
        (3, .piece, .piece, 3),
        (1, .pack, .pack, 1),
        (1, .piece, .pack, nil),
        (200, .g, .ml, nil),
        (1, .kg, .piece, nil),
        (2, .tbsp, .ml, nil),
        (1, .cup, .cup, nil),
        (1, .pinch, .g, nil),
    ])
    func amountsConvertWithinADimensionOnly(_ amount: Double, _ from: IngredientUnit, _ to: IngredientUnit, _ expected: Double?) {
        #expect(from.convert(amount, to: to) == expected)
    }

    static func match(_ quantity: Double, _ unit: String, _ state: DueState = .later) -> StockMatch {
        StockMatch(
            itemId: 1, name: "x", quantity: quantity, unit: unit, due: nil, status: nil, folderId: 1, folderName: "Fridge", folderStarter: nil,
            dueState: state)
    }

    @Test func stockStandsAgainstANeedInTheNeedsUnit() {
        let need = IngredientNeed(amount: 300, unit: .g)
        #expect(need.standing(fresh: [Self.match(0.5, "kg")]) == .enough)
        #expect(need.standing(fresh: [Self.match(100, "g"), Self.match(0.1, "kg")]) == .short(missing: 100))
        #expect(need.standing(fresh: []) == .missing)
        #expect(need.standing(fresh: [Self.match(0, "g")]) == .missing)
        // A pack of chicken for 300 g: there, amount unknown; never guessed.
        #expect(need.standing(fresh: [Self.match(1, "pack")]) == .uncomparable)
        #expect(need.standing(fresh: [Self.match(1, "pack"), Self.match(100, "g")]) == .short(missing: 200))
    }

    @Test func measuresAndIngredientsWithoutAnAmountOnlyNeedToBeThere() {
        let salt = IngredientNeed(amount: 2, unit: .tsp)
        #expect(salt.presenceOnly)
        #expect(salt.standing(fresh: [Self.match(1, "bag")]) == .enough)
        #expect(salt.standing(fresh: []) == .missing)
        let soy = IngredientNeed(amount: nil, unit: nil)
        #expect(soy.presenceOnly)
        #expect(soy.standing(fresh: [Self.match(1, "bottle")]) == .enough)
        #expect(IngredientNeed(amount: nil, unit: .toTaste).presenceOnly)
    }

    @Test func anAmountWithoutAUnitCountsPiecesAndScalesWithServings() {
        let eggs = RecipeIngredient(id: 1, draft: .init(householdId: 1, recipeId: 1, position: 0, name: "Egg", amount: 2)).need(servings: 3, of: 2)
        #expect(eggs.amount == 3)
        #expect(eggs.unit == .piece)
        #expect(eggs.standing(fresh: [Self.match(6, "piece")]) == .enough)
        #expect(eggs.standing(fresh: [Self.match(1, "pack")]) == .uncomparable)
        #expect(eggs.inItemUnit(3, itemUnit: "piece") == 3)
        let flour = IngredientNeed(amount: 250, unit: .g)
        #expect(flour.inItemUnit(250, itemUnit: "kg") == 0.25)
        #expect(flour.inItemUnit(250, itemUnit: "pack") == nil)
    }

    // MARK: - Matching

    struct Kitchen {
        let fixture: Fixture
        let zone = TimeZone(identifier: "UTC")!
        var household: HouseholdScope { fixture.household }
        var database: AppDatabase { fixture.database }

        init() throws { fixture = try Fixture(clock: ManualClock(utc("2026-11-23T09:00:00Z"))) }

        var window: DueWindow { DueWindow(today: CalendarDay("2026-11-23"), soonDays: 3) }

        func folder(_ kind: FolderKind) throws -> Folder.ID { try fixture.firstFolder(kind) }

        @discardableResult
        func add(
            _ name: String, _ quantity: Double = 1, _ unit: String = "piece", in kind: FolderKind = .stock, _ configure: (inout ItemInput) -> Void = { _ in }
        )
            throws -> Item.ID
        {
            var input = ItemInput()
            input.name = name
            input.quantity = String(quantity)
            input.unit = unit
            configure(&input)
            return try fixture.items.register([input], into: try folder(kind), in: household, by: try fixture.owner.memberId, timeZone: zone)[0]
        }

        /// A recipe with ingredients given as (name, amount, unit); returns its ingredients.
        func recipe(_ name: String, _ ingredients: [(String, Double?, String?)], productIds: [Product.ID?] = []) throws -> [RecipeIngredient] {
            try database.writer.write { db in
                let recipe = try Recipe.Draft(householdId: household.householdId, name: name).insertAndFetch(db, as: Recipe.self)
                return try ingredients.enumerated().map { index, ingredient in
                    try RecipeIngredient.Draft(
                        householdId: household.householdId, recipeId: recipe.id, position: index, name: ingredient.0, amount: ingredient.1, unit: ingredient.2,
                        productId: index < productIds.count ? productIds[index] : nil
                    ).insertAndFetch(db, as: RecipeIngredient.self)
                }
            }
        }

        func stock(_ scope: RecipeStock.Scope = .household) throws -> RecipeStock {
            try database.writer.read { db in try RecipeStock.read(db, householdId: household.householdId, scope: scope, window: window) }
        }
    }

    @Test func anIngredientMatchesStockItemsWhoseNameFoldsToTheSameText() throws {
        let kitchen = try Kitchen()
        try kitchen.add("Ｍｉｌｋ", 1, "L") { $0.note = "2% fat" }
        try kitchen.add("MILK", 500, "ml")
        try kitchen.add("Milk tea")
        try kitchen.add("Soy milk")
        try kitchen.add("Milk", in: .shopping)
        let trashed = try kitchen.add("milk")
        try kitchen.fixture.items.trash([trashed], in: kitchen.household, by: try kitchen.fixture.owner.memberId)
        let milk = try kitchen.recipe("Pancakes", [("milk", 300, "ml")])[0]

        let matches = try kitchen.stock().matches(for: milk)
        #expect(matches.map(\.name).sorted() == ["MILK", "Ｍｉｌｋ"])
        #expect(milk.need(servings: 2, of: 2).standing(fresh: matches) == .enough)
    }

    @Test func matchesComeEarliestDueFirstOpenedFirstAndSayWhatIsExpired() throws {
        let kitchen = try Kitchen()
        try kitchen.add("Egg", 4) { $0.due = "2026-12-10" }
        try kitchen.add("Egg", 2) { $0.due = "2026-11-20" }
        try kitchen.add("Egg", 6)
        try kitchen.add("Egg", 3) { $0.due = "2026-11-25" }
        try kitchen.add("Egg", 1) {
            $0.due = "2026-11-25"
            $0.status = "opened"
        }
        let egg = try kitchen.recipe("Omelette", [("egg", 3, "piece")])[0]

        let matches = try kitchen.stock(.recipes([egg.recipeId])).matches(for: egg)
        #expect(matches.map(\.quantity) == [2, 1, 3, 4, 6])
        #expect(matches.map(\.dueState) == [.expired, .soon, .soon, .later, .none])
        #expect(matches.map(\.isUrgent) == [true, true, true, false, false])
    }

    @Test func anIngredientLinkedToAProductMatchesItsBarcodeWhateverTheName() throws {
        let kitchen = try Kitchen()
        try kitchen.add("明治おいしい牛乳", 1, "bottle") { $0.barcode = "4902705001046" }
        try kitchen.add("牛乳")
        let productId = try #require(
            try kitchen.database.writer.read { db in
                try Product.ID.fetchOne(
                    db, sql: "SELECT id FROM product WHERE household_id = ? AND barcode = '4902705001046'", arguments: [kitchen.household.householdId])
            })
        let ingredients = try kitchen.recipe("Latte", [("Milk", 1, "bottle"), ("牛乳", nil, nil)], productIds: [productId])

        let stock = try kitchen.stock()
        #expect(stock.matches(for: ingredients[0]).map(\.name) == ["明治おいしい牛乳"])
        #expect(stock.matches(for: ingredients[1]).map(\.name) == ["牛乳"])
    }

    @Test func anotherHouseholdsItemsAndRecipesNeverMatch() throws {
        let kitchen = try Kitchen()
        _ = try kitchen.fixture.accounts.createHousehold(name: "Next door")
        let nextDoor = try #require(
            try kitchen.database.writer.read { db in
                try Household.ID.fetchOne(db, sql: "SELECT id FROM household WHERE name = 'Next door'").map(HouseholdScope.init)
            })
        try kitchen.database.writer.write { db in
            let folder = try Folder.Draft(householdId: nextDoor.householdId, name: "Their fridge", kind: .stock).insertAndFetch(db, as: Folder.self)
            try Item.Draft(householdId: nextDoor.householdId, folderId: folder.id, name: "Milk").insert(db)
        }
        let milk = try kitchen.recipe("Pancakes", [("milk", 300, "ml")])[0]
        #expect(try kitchen.stock().matches(for: milk).isEmpty)
        let theirs = try kitchen.database.writer.read { db in
            try RecipeStock.read(db, householdId: nextDoor.householdId, scope: .household, window: kitchen.window)
        }
        #expect(theirs.byName.isEmpty)
    }

    @Test func matchingReadsOneIndexRangePerNameNotTheTable() throws {
        let kitchen = try Kitchen()
        try kitchen.add("Milk")
        _ = try kitchen.recipe("Pancakes", [("milk", 300, "ml")])
        let plans = try kitchen.database.writer.read { db in
            try Row.fetchAll(
                db, sql: "EXPLAIN QUERY PLAN " + RecipeStock.nameSQL(filter: RecipeStock.householdFilter),
                arguments: [kitchen.household.householdId, kitchen.household.householdId]
            )
            .map { $0["detail"] as String }.joined(separator: " | ")
        }
        #expect(plans.contains("USING INDEX item_by_folded_name (household_id=? AND search_text>? AND search_text<?)"), "\(plans)")
        #expect(!plans.contains("SCAN i"), "\(plans)")
    }
}
