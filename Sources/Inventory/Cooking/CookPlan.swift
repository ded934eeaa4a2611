/// What cooking a recipe for some servings would take now: the confirmation page shows it, and
/// `Cooking.cook` recomputes it inside its transaction and takes exactly that.
public struct CookPlan: Sendable {
    public let recipe: Recipe
    public let servings: Int
    /// In ingredient order, then taking order (earliest due first, opened first).
    public let takes: [PlannedTake]
    /// Every lacking ingredient (missing entirely or short), in ingredient order.
    public let shortfalls: [Shortfall]
    /// Ingredients present but not taken: presence-only ones, and those only in units that do not compare.
    public let notTaken: [NotTaken]
    /// Ingredients lacking on a planned day because the stock that would cover them is past its
    /// date by then (see `CookPlanner.plan(_:_:stock:servings:on:left:)`); empty for a cook now.
    public let expiredByThen: [String]

    init(recipe: Recipe, servings: Int, takes: [PlannedTake], shortfalls: [Shortfall], notTaken: [NotTaken], expiredByThen: [String] = []) {
        self.recipe = recipe
        self.servings = servings
        self.takes = takes
        self.shortfalls = shortfalls
        self.notTaken = notTaken
        self.expiredByThen = expiredByThen
    }

    public var isShort: Bool { !shortfalls.isEmpty }
}

/// Some of one item, taken for one ingredient.
public struct PlannedTake: Sendable, Equatable {
    public let ingredientName: String
    public let itemId: Item.ID
    public let itemName: String
    public let folderName: String
    /// The folder's starter key while unrenamed (see `Folder.starter`).
    public let folderStarter: String?
    /// In the item's unit.
    public let amount: Double
    /// The item's unit.
    public let unit: String
    /// The take leaves nothing of the item: it then follows the household's used-up choice.
    public let usesUp: Bool
    public let due: CalendarDay?
}

/// An ingredient the stock does not cover.
public struct Shortfall: Sendable, Equatable {
    public let ingredientName: String
    /// How much is missing, in `unit`; nil when a presence-only ingredient is not there at all.
    public let missing: Double?
    /// The ingredient's unit (a measure, or nil, for presence-only ones).
    public let unit: IngredientUnit?

    public init(ingredientName: String, missing: Double?, unit: IngredientUnit?) {
        self.ingredientName = ingredientName
        self.missing = missing
        self.unit = unit
    }
}

/// An ingredient that is there but that cooking takes nothing from.
public struct NotTaken: Sendable, Equatable {
    public let ingredientName: String
    public let reason: Reason

    public enum Reason: Sendable, Equatable {
        /// No amount, or a cooking measure (salt, 大さじ2 醤油): stock is not kept in spoons.
        case onlyNeedsToBeThere
        /// Only items in units that do not compare with the recipe's (a pack for 200 g): never guessed.
        case unitsDoNotCompare
    }

    public init(ingredientName: String, reason: Reason) {
        self.ingredientName = ingredientName
        self.reason = reason
    }
}

/// Cooking refused because something is short (and "with what we have" was not asked); nothing changed.
public struct CookShortfall: Error, Sendable, Equatable {
    public let shortfalls: [Shortfall]
}

/// Cooking refused because the household sends used-up items to a shopping list and the cook may
/// not change one; nothing changed.
public struct UsedUpGoesToAList: Error, Sendable, Equatable {}

/// What a cook did.
public struct CookResult: Sendable, Equatable {
    public let cookId: Cook.ID
    /// How many items it took from (an item two ingredients took from counts once).
    public let taken: Int
    /// How many items it used up (trashed or moved to a shopping list).
    public let usedUp: Int
    public let producedItemId: Item.ID?
}

/// One line `Cooking.addShortfall` put on a shopping list.
public struct AddedToList: Sendable, Equatable {
    public let name: String
    /// What was added, in `unit`; nil for an ingredient that only needs to be there (one item added).
    public let amount: Double?
    public let unit: String
    /// Added to a row of the same name and unit already on the list, rather than a new row.
    public let merged: Bool

    public init(name: String, amount: Double?, unit: String, merged: Bool) {
        self.name = name
        self.amount = amount
        self.unit = unit
        self.merged = merged
    }
}
