import Inventory
import Mustache

/// /recipes, "what can we make": every recipe with its state in words, what it lacks and what of
/// it should be used soon; chips for the state and the kinds, a search field (all plain links and
/// a GET form); `?ingredient=` narrows it to the recipes that use one thing.
struct RecipesPage: PageView {
    static let template = "recipes"

    /// One recipe of the list, formatted once.
    struct Card: MustacheParent, Sendable {
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

        func child(named key: String) -> Any? {
            switch key {
            case "href": return href
            case "name": return name
            case "picture": return picture
            case "hasPicture": return hasPicture
            case "state": return state
            case "stateText": return stateText
            case "stateMark": return stateMark
            case "missing": return missing
            case "useSoon": return useSoon
            case "tags": return tags
            case "hasTags": return !tags.isEmpty
            default: return nil
            }
        }
    }

    /// A filter as a link that keeps the other filters; `current` when it is the one applied.
    struct Chip: MustacheParent, Sendable {
        let href: String
        let label: String
        let count: String?
        let current: Bool

        func child(named key: String) -> Any? {
            switch key {
            case "href": return href
            case "label": return label
            case "count": return count
            case "current": return current
            default: return nil
            }
        }
    }

    /// A filter carried as a hidden field of the search form.
    struct Hidden: MustacheParent, Sendable {
        let name: String
        let value: String
        func child(named key: String) -> Any? { key == "name" ? name : key == "value" ? value : nil }
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

    func title(_ t: Catalog) -> String { heading }

    func child(named key: String) -> Any? {
        switch key {
        case "heading": return heading
        case "ingredient": return ingredient
        case "summary": return summary
        case "cards": return cards
        case "hasCards": return !cards.isEmpty
        case "stateChips": return stateChips
        case "tagChips": return tagChips
        case "hasTags": return !tagChips.isEmpty
        case "text": return text
        case "hidden": return hidden
        case "isFiltered": return isFiltered
        case "empty": return empty
        case "hasRecipes": return hasRecipes
        case "notice": return notice
        case "undoIds": return undoIds
        case "here": return here
        default: return nil
        }
    }
}
