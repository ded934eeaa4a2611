import Foundation
import GRDB

/// Cooking a recipe from the stock: what it would take, taking it all in one transaction, giving it
/// back, and sending what is missing to a shopping list. Every method takes the session's
/// `HouseholdScope`; a recipe, cook or folder of another household is `.notFound`.
public struct Cooking: Sendable {
    let database: AppDatabase
    let clock: WallClock

    public init(database: AppDatabase, clock: WallClock = .system) {
        self.database = database
        self.clock = clock
    }

    func stamp() -> Timestamp { Timestamp(clock.now()) }

    /// What cooking would take now, read in one transaction (the confirmation page).
    public func plan(_ recipeId: Recipe.ID, servings: Int, in scope: HouseholdScope, window: DueWindow) throws -> CookPlan {
        try database.writer.read { db in
            try CookPlanner.plan(db, recipeId: recipeId, servings: servings, householdId: scope.householdId, window: window)
        }
    }

    /// Takes it all in one transaction, the plan recomputed inside it: GRDB runs one writer at a
    /// time, so two cooks never take the same stock twice and no quantity goes below 0. When
    /// something is short and `withWhatWeHave` is false: throws `CookShortfall` (nothing changed);
    /// with it, takes what there is, but a cook that would take nothing and make nothing is refused
    /// the same way. Used-up items follow `Household.usedUp`. Produces the recipe's item. Every
    /// touched item gets an item_event with the cook's id.
    /// Cooking a meal of the plan (`meal`, of this recipe) marks it cooked in the same transaction;
    /// undoing the cook plans it again. `mayMoveToList` false (a token that may not change shopping
    /// lists): when the household sends used-up items to a shopping list, throws
    /// `UsedUpGoesToAList` and changes nothing (read in the transaction, so a setting changed
    /// meanwhile counts).
    public func cook(
        _ recipeId: Recipe.ID, servings: Int, withWhatWeHave: Bool, meal mealId: Meal.ID? = nil, mayMoveToList: Bool = true, in scope: HouseholdScope,
        by memberId: Member.ID, window: DueWindow
    ) throws -> CookResult {
        let time = stamp()
        return try database.write(by: memberId, at: time) { db in
            // A meal of the plan is this recipe's, or not this cook's to mark.
            var meal = try mealId.map { try MealPlan.meal(db, $0, scope.householdId) }
            if let meal, meal.recipeId != recipeId { throw InventoryError.notFound }
            let plan = try CookPlanner.plan(db, recipeId: recipeId, servings: servings, householdId: scope.householdId, window: window)
            if plan.isShort, !withWhatWeHave || (plan.takes.isEmpty && plan.recipe.produce == nil) {
                throw CookShortfall(shortfalls: plan.shortfalls)
            }
            var cook = try Cook.Draft(
                householdId: scope.householdId, recipeId: recipeId, recipeName: plan.recipe.name, memberId: memberId, servings: servings, cookedAt: time
            ).insertAndFetch(db, as: Cook.self)
            if var meal {
                meal.cookId = cook.id
                meal.done = .cooked
                meal.updatedAt = time
                try meal.update(db)
            }
            let history = CookHistory(cookId: cook.id, memberId: memberId, time: time)
            let usedUp = try UsedUpPlace.read(db, householdId: scope.householdId)
            if usedUp.shoppingList != nil, !mayMoveToList { throw UsedUpGoesToAList() }
            var usedUpCount = 0
            for take in plan.takes {
                if try Self.apply(take, db, householdId: scope.householdId, usedUp: usedUp, history: history) { usedUpCount += 1 }
            }
            if let produce = plan.recipe.produce {
                cook.producedItemId = try Self.produce(produce, db, householdId: scope.householdId, window: window, history: history)
                try cook.update(db)
            }
            return CookResult(cookId: cook.id, taken: Set(plan.takes.map(\.itemId)).count, usedUp: usedUpCount, producedItemId: cook.producedItemId)
        }
    }

    /// Takes one planned amount from its item and records it; true when it used the item up.
    static func apply(_ take: PlannedTake, _ db: Database, householdId: Household.ID, usedUp: UsedUpPlace, history: CookHistory) throws -> Bool {
        var item = try Items.item(db, take.itemId, householdId)
        let before = item.quantity
        item.quantity = max(0, Quantity.rounded(before - take.amount))
        item.version += 1
        item.updatedAt = history.time
        var record = CookTake.Draft(
            cookId: history.cookId, itemId: take.itemId, ingredientName: take.ingredientName, amount: Quantity.rounded(before - item.quantity))
        try item.update(db)
        try history.record(db, item, "quantity", "\(Quantity.text(before)) → \(Quantity.text(item.quantity))")
        if item.quantity == 0 {
            try usedUp.put(&item, &record, db, history: history)
        }
        try record.insert(db)
        return record.usedUp != nil
    }

    /// The recipe's item, in its stock list (or the first one), due `dueDays` after today.
    static func produce(_ produce: RecipeProduce, _ db: Database, householdId: Household.ID, window: DueWindow, history: CookHistory) throws -> Item.ID {
        let folder =
            try produce.folderId.flatMap { try? Items.folder(db, $0, householdId) }.flatMap { $0.kind == .stock ? $0 : nil }
            ?? firstFolder(db, .stock, householdId)
        guard let folder else { throw InventoryError.validation(["produce_folder": .folderNotStock]) }
        let item = try Item.Draft(
            householdId: householdId, folderId: folder.id, name: produce.name, quantity: produce.quantity, unit: produce.unit, kind: produce.kind,
            due: produce.dueDays.map { window.today.adding(days: $0) }, status: .unopened, createdAt: history.time,
            updatedAt: history.time
        ).insertAndFetch(db, as: Item.self)
        try history.record(db, item, "created", folder.name)
        return item.id
    }

    static func firstFolder(_ db: Database, _ kind: FolderKind, _ householdId: Household.ID) throws -> Folder? {
        try Folder.fetchOne(
            db, sql: "SELECT * FROM folder WHERE household_id = ? AND kind = ? AND deleted_at IS NULL ORDER BY position, id LIMIT 1",
            arguments: [householdId, kind.rawValue])
    }

    /// One cook of this household (for its undone state).
    public func cook(_ cookId: Cook.ID, in scope: HouseholdScope) throws -> Cook {
        try database.writer.read { db in try Self.cook(db, cookId, scope.householdId) }
    }

    static func cook(_ db: Database, _ cookId: Cook.ID, _ householdId: Household.ID) throws -> Cook {
        guard let cook = try Cook.fetchOne(db, sql: "SELECT * FROM cook WHERE id = ? AND household_id = ?", arguments: [cookId, householdId]) else {
            throw InventoryError.notFound
        }
        return cook
    }
}

/// The history lines one cook writes: each names the cook, so the item page can offer its Undo.
struct CookHistory {
    let cookId: Cook.ID
    let memberId: Member.ID
    let time: Timestamp

    func record(_ db: Database, _ item: Item, _ kind: String, _ detail: String = "") throws {
        try ItemHistory.append(db, householdId: item.householdId, itemId: item.id, memberId: memberId, kind: kind, detail: detail, at: time, cookId: cookId)
    }

    /// A move between two folders, kept by id as `Items.record(_:_:_:from:to:)` keeps it.
    func record(_ db: Database, _ item: Item, _ kind: String, from: Folder.ID, to: Folder.ID) throws {
        try Items.record(db, item, kind, from: from, to: to, by: memberId, at: time, cookId: cookId)
    }
}

/// Where the household's used-up items go: the trash, or a shopping list.
struct UsedUpPlace {
    /// nil: the trash.
    let shoppingList: Folder?

    /// The household's choice; a shopping list that is gone means the first one, and none at all the trash.
    static func read(_ db: Database, householdId: Household.ID) throws -> UsedUpPlace {
        let household = try HouseholdSettings.household(db, householdId)
        guard household.usedUp == "shopping" else { return UsedUpPlace(shoppingList: nil) }
        let chosen = household.usedUpFolderId.flatMap { try? Items.folder(db, $0, householdId) }.flatMap { $0.kind == .shopping ? $0 : nil }
        return UsedUpPlace(shoppingList: try chosen ?? Cooking.firstFolder(db, .shopping, householdId))
    }

    /// Trashes the used-up item the way `Items.trash` does, or moves it the way `Items.move` moves
    /// stock to a shopping list, keeping in `take` the stock fields the move drops.
    func put(_ item: inout Item, _ take: inout CookTake.Draft, _ db: Database, history: CookHistory) throws {
        if let list = shoppingList {
            let from = item.folderId
            take.usedUp = .moved
            take.fromFolderId = item.folderId
            take.due = item.due
            take.remindAt = item.remindAt
            take.status = item.status?.rawValue
            Items.fit(&item.draft, to: .shopping)
            item.folderId = list.id
            try item.update(db)
            try history.record(db, item, "moved", from: from, to: list.id)
        } else {
            take.usedUp = .trashed
            item.deletedAt = history.time
            try item.update(db)
            try history.record(db, item, "deleted")
        }
    }
}
