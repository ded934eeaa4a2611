import Foundation

/// Which recipes /recipes shows; filters combine (AND).
public struct RecipeFilter: Sendable, Equatable {
    /// nil: every state.
    public var readiness: RecipeReadiness?
    /// A tag as stored (exact); nil or empty: any.
    public var tag: String?
    /// Matched, folded, anywhere in the recipe's name or in one of its ingredients' names.
    public var text: String
    /// Recipes with an ingredient of this folded name, or linked to a product whose name folds to it.
    public var ingredient: String?
    /// Count what the meal plan reserves as free stock.
    public var ignoresPlan: Bool

    public init(readiness: RecipeReadiness? = nil, tag: String? = nil, text: String = "", ingredient: String? = nil, ignoresPlan: Bool = false) {
        self.ignoresPlan = ignoresPlan
        self.readiness = readiness
        self.tag = tag
        self.text = text
        self.ingredient = ingredient
    }

    public var isFiltered: Bool {
        readiness != nil || !(tag ?? "").isEmpty || !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            || !(ingredient ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }
}

/// Whether a recipe can be cooked from the fresh stock: the count of lacking ingredients.
public enum RecipeReadiness: String, Sendable, CaseIterable {
    case ready
    case missingOne = "missing_one"
    case missingSeveral = "missing_several"

    public init(lacking: Int) {
        self = lacking == 0 ? .ready : lacking == 1 ? .missingOne : .missingSeveral
    }

    /// Ready first, then missing one, then several.
    var rank: Int {
        switch self {
        case .ready: 0
        case .missingOne: 1
        case .missingSeveral: 2
        }
    }
}

/// What /recipes shows.
public struct RecipeOverview: Sendable {
    /// Filtered, in order.
    public let recipes: [RecipeSummary]
    /// Every tag of the household's recipes (not the trash), sorted: the tag filter's choices.
    public let tags: [String]
    /// The household's recipes before filtering (outside the trash).
    public let total: Int
    /// The meal plan reserves some stock (the page then offers to ignore it).
    public let planReserves: Bool
}

/// What /recipes shows of a recipe itself (not its steps or what it makes).
public struct RecipeHeading: Sendable, Equatable {
    public let id: Recipe.ID
    public let name: String
    public let nameFolded: String
    public let photo: String?
    public let illustration: String?
    public let servings: Int

    /// What the recipe shows as its picture, if anything.
    public var picture: Picture? {
        if let photo { return .photo(photo) }
        return illustration.map(Picture.illustration)
    }
}

/// One recipe of /recipes with how it stands.
public struct RecipeSummary: Sendable {
    public let recipe: RecipeHeading
    public let tags: [String]
    public let readiness: RecipeReadiness
    /// Names of the ingredients lacking, in recipe order.
    public let missing: [String]
    /// Names of the ingredients matched by expired or due-soon items, in recipe order.
    public let useSoon: [String]
    /// How much the recipe uses what expires soon (see `Recipes.urgency`); the default order.
    public let urgency: Double
}

/// One ingredient of a recipe's page against the stock.
public struct IngredientAvailability: Sendable {
    public let ingredient: RecipeIngredient
    /// Scaled to the servings shown.
    public let need: IngredientNeed
    /// Over the fresh matches only.
    public let standing: IngredientStanding
    /// Not expired, in taking order.
    public let fresh: [StockMatch]
    /// Expired: shown apart, never counted or taken.
    public let expired: [StockMatch]
}

/// A recipe's page.
public struct RecipeDetail: Sendable {
    public let recipe: Recipe
    public let tags: [String]
    /// The servings shown (the amounts are scaled to it).
    public let servings: Int
    public let ingredients: [IngredientAvailability]
    public let readiness: RecipeReadiness
    /// The meal plan reserves some of the stock this recipe's ingredients match: shown as not free
    /// unless the plan was ignored.
    public let planReserves: Bool
}
