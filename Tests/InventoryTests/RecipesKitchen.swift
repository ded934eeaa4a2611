import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// A household with stock and recipes for the `Recipes` suites, on an in-memory database and a
/// clock at 2026-11-23 09:00 UTC (the household's today).
struct RecipeKitchen {
    let fixture: Fixture
    let recipes: Recipes
    let zone = TimeZone(identifier: "UTC")!
    var household: HouseholdScope { fixture.household }
    var database: AppDatabase { fixture.database }
    var window: DueWindow { DueWindow(today: CalendarDay("2026-11-23"), soonDays: 3) }

    /// The owner (kept: the session expires when a test moves the clock a month on).
    let member: Member.ID

    init(database: AppDatabase? = nil) throws {
        fixture = try Fixture(database: database, clock: ManualClock(utc("2026-11-23T09:00:00Z")))
        recipes = Recipes(database: fixture.database, clock: fixture.clock.wall)
        member = try fixture.owner.memberId
    }

    func folder(_ kind: FolderKind) throws -> Folder.ID { try fixture.firstFolder(kind) }

    /// A second stock list ("Pantry").
    func pantry() throws -> Folder.ID {
        try Folders(database: database).create(name: "Pantry", kind: .stock, icon: "pantry", in: household)
    }

    /// A stock item (in the first stock list unless `folder` is given).
    @discardableResult
    func add(
        _ name: String, _ quantity: Double = 1, _ unit: String = "piece", due: String = "", folder: Folder.ID? = nil,
        _ configure: (inout ItemInput) -> Void = { _ in }
    ) throws -> Item.ID {
        var input = ItemInput()
        input.name = name
        input.quantity = String(quantity)
        input.unit = unit
        input.due = due
        configure(&input)
        return try fixture.items.register([input], into: try folder ?? self.folder(.stock), in: household, by: member, timeZone: zone)[0]
    }

    /// A recipe written as rows (the read side does not depend on `save`); ingredients are
    /// (name, amount, unit).
    @discardableResult
    func recipe(
        _ name: String, _ ingredients: [(String, Double?, String?)] = [], servings: Int = 2, tags: [String] = [], productIds: [Product.ID?] = [],
        in other: HouseholdScope? = nil
    ) throws -> Recipe.ID {
        let household = (other ?? self.household).householdId
        return try database.writer.write { db in
            let recipe = try Recipe.Draft(householdId: household, name: name, servings: servings).insertAndFetch(db, as: Recipe.self)
            for (index, ingredient) in ingredients.enumerated() {
                try RecipeIngredient.Draft(
                    householdId: household, recipeId: recipe.id, position: index, name: ingredient.0, amount: ingredient.1, unit: ingredient.2,
                    productId: index < productIds.count ? productIds[index] : nil
                ).insert(db)
            }
            for tag in tags { try RecipeTag(recipeId: recipe.id, householdId: household, tag: tag).insert(db) }
            return recipe.id
        }
    }

    /// Another household ("Next door") with a stock list; returns its id and its stock list.
    func nextDoor() throws -> (household: HouseholdScope, folder: Folder.ID) {
        _ = try fixture.accounts.createHousehold(name: "Next door")
        return try database.writer.write { db in
            let id = try #require(try Household.ID.fetchOne(db, sql: "SELECT id FROM household WHERE name = 'Next door'").map(HouseholdScope.init))
            let folder = try #require(
                try Folder.ID.fetchOne(db, sql: "SELECT id FROM folder WHERE household_id = ? AND kind = 'stock'", arguments: [id.householdId]))
            return (id, folder)
        }
    }

    /// The product the household learned from an item with `barcode`.
    func product(barcode: String, in other: HouseholdScope? = nil) throws -> Product.ID {
        try #require(
            try database.writer.read { db in
                try Product.ID.fetchOne(
                    db, sql: "SELECT id FROM product WHERE household_id = ? AND barcode = ?", arguments: [(other ?? household).householdId, barcode])
            })
    }

    func overview(_ filter: RecipeFilter = RecipeFilter()) throws -> RecipeOverview {
        try recipes.overview(in: household, filter: filter, window: window)
    }

    func detail(_ id: Recipe.ID, servings: Int? = nil) throws -> RecipeDetail {
        try recipes.detail(id, in: household, servings: servings, window: window)
    }
}
