import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// `zaiko demo`'s recipes show every state: ready now, missing one, missing several, and using
/// what expires soon; their ingredients are named like the demo's items.
struct DemoRecipesTests {
    @Test func theDemoRecipesAreReadyMissingAndUsingWhatExpiresSoon() throws {
        let database = try AppDatabase.inMemory()
        let now = utc("2026-11-23T03:00:00Z")
        _ = try DemoHousehold(database: database, clock: WallClock { now }).create(items: 200, recipes: 20, hasher: CountingHasher())
        let (lacking, urgent) = try database.writer.read { db -> ([String: Int], Set<String>) in
            let household = try #require(try Household.fetchOne(db))
            let window = DueWindow(household: household, now: now)
            let stock = try RecipeStock.read(db, householdId: household.id, scope: .household, window: window)
            var lacking: [String: Int] = [:]
            var urgent: Set<String> = []
            for recipe in try Recipe.fetchAll(db) {
                let ingredients = try RecipeIngredient.filter(Column("recipe_id") == recipe.id).fetchAll(db)
                lacking[recipe.name] =
                    ingredients.filter { ingredient in
                        let matches = stock.matches(for: ingredient)
                        if matches.contains(where: \.isUrgent) { urgent.insert(recipe.name) }
                        return ingredient.need(servings: recipe.servings, of: recipe.servings).standing(fresh: matches.filter { !$0.isExpired }).isLacking
                    }.count
            }
            return (lacking, urgent)
        }
        #expect(lacking.count == 20)
        // SQLite 3.40 misread WITHOUT ROWID recipe tags as NULL here, and `serve` refused the file.
        #expect(try database.writer.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") } == ["ok"])
        #expect(lacking.values.contains(0), "some ready now: \(lacking)")
        #expect(lacking.values.contains(1), "some missing one: \(lacking)")
        #expect(lacking["カレーライス"]! >= 1, "no demo item is called じゃがいも")
        #expect(!urgent.isEmpty, "some use what expires soon")
        #expect(try database.writer.read { db in try Recipe.filter(Column("produce_name") != nil).fetchCount(db) } == 3)
    }
}
