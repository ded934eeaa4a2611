import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// The household "Home" with its stock, recipes written as records, and `Cooking` over it, on
/// 2026-11-23 (UTC, due soon within 3 days).
struct CookKitchen {
    let fixture: Fixture
    let cooking: Cooking
    let member: Member.ID
    let zone = TimeZone(identifier: "UTC")!

    init(database: AppDatabase? = nil) throws {
        fixture = try Fixture(database: database, clock: ManualClock(utc("2026-11-23T09:00:00Z")))
        cooking = Cooking(database: fixture.database, clock: fixture.clock.wall)
        member = try fixture.owner.memberId
    }

    var household: HouseholdScope { fixture.household }
    var database: AppDatabase { fixture.database }
    var window: DueWindow { DueWindow(today: CalendarDay("2026-11-23"), soonDays: 3) }

    func folder(_ kind: FolderKind) throws -> Folder.ID { try fixture.firstFolder(kind) }

    /// A folder of `kind` named `name`, made for the test.
    func makeFolder(_ name: String, _ kind: FolderKind, in other: HouseholdScope? = nil) throws -> Folder.ID {
        try database.writer.write { db in
            try Folder.Draft(householdId: (other ?? household).householdId, name: name, kind: kind, position: 10).insertAndFetch(db, as: Folder.self).id
        }
    }

    @discardableResult
    func add(
        _ name: String, _ quantity: Double = 1, _ unit: String = "piece", in folderId: Folder.ID? = nil, due: String? = nil, status: String? = nil,
        kind: FolderKind = .stock
    ) throws -> Item.ID {
        var input = ItemInput()
        input.name = name
        input.quantity = Quantity.text(quantity)
        input.unit = unit
        if let due { input.due = due }
        if let status { input.status = status }
        return try fixture.items.register([input], into: try folderId ?? folder(kind), in: household, by: member, timeZone: zone)[0]
    }

    /// A recipe with ingredients (name, amount, unit); returns its id.
    @discardableResult
    func recipe(_ name: String, servings: Int = 2, _ ingredients: [(String, Double?, String?)], produce: RecipeProduce? = nil, in other: HouseholdScope? = nil)
        throws -> Recipe.ID
    {
        let owner = (other ?? household).householdId
        return try database.writer.write { db in
            let recipe = try Recipe.Draft(householdId: owner, name: name, servings: servings, produce: produce).insertAndFetch(db, as: Recipe.self)
            for (index, ingredient) in ingredients.enumerated() {
                try RecipeIngredient.Draft(
                    householdId: owner, recipeId: recipe.id, position: index, name: ingredient.0, amount: ingredient.1, unit: ingredient.2
                ).insert(db)
            }
            return recipe.id
        }
    }

    func plan(_ recipeId: Recipe.ID, servings: Int = 2) throws -> CookPlan {
        try cooking.plan(recipeId, servings: servings, in: household, window: window)
    }

    @discardableResult
    func cook(_ recipeId: Recipe.ID, servings: Int = 2, withWhatWeHave: Bool = false) throws -> CookResult {
        try cooking.cook(recipeId, servings: servings, withWhatWeHave: withWhatWeHave, in: household, by: member, window: window)
    }

    /// An item's row whatever its state (trash included).
    func row(_ id: Item.ID) throws -> Item {
        try #require(try database.writer.read { db in try Item.fetchOne(db, key: id) })
    }

    func quantity(_ id: Item.ID) throws -> Double { try row(id).quantity }

    func history(_ id: Item.ID) throws -> [ItemEvent] { try fixture.items.history(of: id, in: household) }

    /// Every item's quantity, version, folder and trash state, and the count of history lines and cooks.
    func snapshot() throws -> [String] {
        try database.writer.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT id || ':' || quantity || ':' || version || ':' || folder_id || ':' || IFNULL(deleted_at, '-') FROM item ORDER BY id
                    """)
                + [
                    "events \(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item_event") ?? -1)",
                    "cooks \(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM cook") ?? -1)",
                    "takes \(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM cook_take") ?? -1)",
                ]
        }
    }

    /// A second household (with its starter folders); returns its id.
    func nextDoor() throws -> HouseholdScope {
        _ = try fixture.accounts.createHousehold(name: "Next door")
        return try #require(
            try database.writer.read { db in try Household.ID.fetchOne(db, sql: "SELECT id FROM household WHERE name = 'Next door'").map(HouseholdScope.init) })
    }
}
