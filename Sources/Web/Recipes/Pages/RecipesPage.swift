import Inventory

/// /recipes, "what can we make": every recipe with its state in words, what it lacks and what of
/// it should be used soon; chips for the state and the kinds, a search field (all plain links and
/// a GET form); `?ingredient=` narrows it to the recipes that use one thing. Thirty recipes a page
/// (`Templates/recipes.mustache`, compiled).
struct RecipesPage: CompiledPage {
    /// One recipe of the list, formatted once.
    struct Card: Sendable {
        let href: String
        let name: String
        let picture: String
        let hasPicture: Bool
        /// `ready`, `missing_one`, `missing_several`: the card's class.
        let state: String
        let stateText: String
        let stateMark: String
        /// The lacking ingredients' names, joined ("牛乳、卵").
        let missing: String?
        /// "Use soon: 牛乳" when an ingredient matches expired or due-soon stock.
        let useSoon: String?
        let tags: [Chip]

        var hasTags: Bool { !tags.isEmpty }
    }

    /// A filter as a link that keeps the other filters; `current` when it is the one applied.
    struct Chip: Sendable {
        let href: String
        let label: String
        let count: String?
        let current: Bool
    }

    /// A filter carried as a hidden field of the search form.
    struct Hidden: Sendable {
        let name: String
        let value: String
    }

    let heading: String
    /// "Recipes with 牛乳": the way back to every recipe.
    let ingredient: String?
    let summary: String?
    let cards: [Card]
    let stateChips: [Chip]
    let tagChips: [Chip]
    let text: String
    let hidden: [Hidden]
    let isFiltered: Bool
    let empty: String
    let hasRecipes: Bool
    let notice: String?
    let undoIds: String?
    let here: String
    /// The neighbours' addresses keep the same filters.
    let pager: Pager
    /// The meal plan reserves stock: said, with the toggle to ignore it.
    let planHint: RecipePage.PlanHint?

    func title(_ t: Catalog) -> String { heading }

    var hasCards: Bool { !cards.isEmpty }
    var hasTags: Bool { !tagChips.isEmpty }
}
