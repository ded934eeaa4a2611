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
    let member: Int64
    let zone = TimeZone(identifier: "UTC")!

    init(database: AppDatabase? = nil) throws {
        fixture = try Fixture(database: database, clock: ManualClock(utc("2026-11-23T09:00:00Z")))
        cooking = Cooking(database: fixture.database, clock: fixture.clock.wall)
        member = try fixture.owner.memberId
    }

    var household: HouseholdScope { fixture.household }
    var database: AppDatabase { fixture.database }
    var window: DueWindow { DueWindow(today: CalendarDay("2026-11-23"), soonDays: 3) }

    func folder(_ kind: FolderKind) throws -> Int64 { try fixture.firstFolder(kind) }

    /// A folder of `kind` named `name`, made for the test.
    func makeFolder(_ name: String, _ kind: FolderKind, in other: HouseholdScope? = nil) throws -> Int64 {
        try database.writer.write { db in
            var folder = Folder(householdId: (other ?? household).householdId, name: name, kind: kind, position: 10)
            try folder.insert(db)
            return folder.id!
        }
    }

    @discardableResult
    func add(
        _ name: String, _ quantity: Double = 1, _ unit: String = "piece", in folderId: Int64? = nil, due: String? = nil, status: String? = nil,
        kind: FolderKind = .stock
    ) throws -> Int64 {
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
        throws -> Int64
    {
        let owner = (other ?? household).householdId
        return try database.writer.write { db in
            var recipe = Recipe(householdId: owner, name: name, servings: servings, produce: produce)
            try recipe.insert(db)
            for (index, ingredient) in ingredients.enumerated() {
                var row = RecipeIngredient(
                    householdId: owner, recipeId: recipe.id!, position: index, name: ingredient.0, amount: ingredient.1, unit: ingredient.2)
                try row.insert(db)
            }
            return recipe.id!
        }
    }

    func plan(_ recipeId: Int64, servings: Int = 2) throws -> CookPlan {
        try cooking.plan(recipeId, servings: servings, in: household, window: window)
    }

    @discardableResult
    func cook(_ recipeId: Int64, servings: Int = 2, withWhatWeHave: Bool = false) throws -> CookResult {
        try cooking.cook(recipeId, servings: servings, withWhatWeHave: withWhatWeHave, in: household, by: member, window: window)
    }

    /// An item's row whatever its state (trash included).
    func row(_ id: Int64) throws -> Item {
        try #require(try database.writer.read { db in try Item.fetchOne(db, key: id) })
    }

    func quantity(_ id: Int64) throws -> Double { try row(id).quantity }

    func history(_ id: Int64) throws -> [ItemEvent] { try fixture.items.history(of: id, in: household) }

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
