import Foundation
import Inventory
import Mustache

/// /recipes/{id}: the ingredient list against the stock (the heart of it), the servings stepper,
/// Cook and "add what's missing" for writers, the steps as paragraphs.
struct RecipePage: PageView {
    static let template = "recipe"

    /// One ingredient: its scaled amount, its standing in words, the items it matched.
    struct Ingredient: MustacheParent, Sendable {
        let name: String
        let amount: String?
        let note: String?
        let standing: RecipeWords.Standing
        let fresh: [Match]
        /// "1 expired in 冷蔵庫": the expired matches, apart, by folder.
        let expiredNote: String?
        let expired: [Match]

        func child(named key: String) -> Any? {
            switch key {
            case "name": return name
            case "amount": return amount
            case "note": return note
            case "standingKey": return standing.key
            case "standingMark": return standing.mark
            case "standingText": return standing.text
            case "fresh": return fresh
            case "hasFresh": return !fresh.isEmpty
            case "expiredNote": return expiredNote
            case "expired": return expired
            default: return nil
            }
        }
    }

    /// A stock item an ingredient matched: link, quantity, folder, due date (with its word).
    struct Match: MustacheParent, Sendable {
        let href: String
        let name: String
        let quantity: String
        let folder: String
        let due: String?
        let dueState: String
        let dueWord: String?

        func child(named key: String) -> Any? {
            switch key {
            case "href": return href
            case "name": return name
            case "quantity": return quantity
            case "folder": return folder
            case "due": return due
            case "dueState": return dueState
            case "dueWord": return dueWord
            default: return nil
            }
        }
    }

    /// A paragraph of the steps, as lines (a single line break is kept as one).
    struct Paragraph: MustacheParent, Sendable {
        let lines: [Line]
        func child(named key: String) -> Any? { key == "lines" ? lines : nil }
    }

    struct Line: MustacheParent, Sendable {
        let text: String
        let last: Bool
        func child(named key: String) -> Any? { key == "text" ? text : key == "last" ? last : nil }
    }

    /// A notice from the address (saved, cooked, undone, added), with its optional action.
    struct Notice: MustacheParent, Sendable {
        let text: String
        /// "Undo" of a cook: where it posts.
        let undoAction: String?
        /// "Added 2 to Supermarket": the list it names.
        let link: String?
        let linkText: String?
        /// The words after the link.
        let after: String?

        func child(named key: String) -> Any? {
            switch key {
            case "text": return text
            case "undoAction": return undoAction
            case "link": return link
            case "linkText": return linkText
            case "after": return after
            default: return nil
            }
        }
    }

    let id: Int64
    let name: String
    let picture: String
    let hasPicture: Bool
    let pictureAlt: String
    let tags: [RecipesPage.Chip]
    let state: String
    let stateText: String
    let stateMark: String
    /// "Missing: 牛乳、卵", when something is lacking.
    let missing: String?
    let servings: Int
    let servingsText: String
    let fewer: String?
    let more: String?
    let recipeServings: String?
    let ingredients: [Ingredient]
    let paragraphs: [Paragraph]
    let source: String?
    let produces: String?
    let canWrite: Bool
    let isLacking: Bool
    let shoppingLists: [Choice]
    let notices: [Notice]
    let here: String

    func title(_ t: Catalog) -> String { name }

    func child(named key: String) -> Any? {
        switch key {
        case "id": return id
        case "name": return name
        case "picture": return picture
        case "hasPicture": return hasPicture
        case "pictureAlt": return pictureAlt
        case "tags": return tags
        case "hasTags": return !tags.isEmpty
        case "state": return state
        case "stateText": return stateText
        case "stateMark": return stateMark
        case "missing": return missing
        case "servings": return servings
        case "servingsText": return servingsText
        case "fewer": return fewer
        case "more": return more
        case "recipeServings": return recipeServings
        case "ingredients": return ingredients
        case "hasIngredients": return !ingredients.isEmpty
        case "paragraphs": return paragraphs
        case "hasSteps": return !paragraphs.isEmpty
        case "source": return source
        case "produces": return produces
        case "canWrite": return canWrite
        case "isLacking": return isLacking
        case "shoppingLists": return shoppingLists
        case "hasShoppingLists": return !shoppingLists.isEmpty
        case "notices": return notices
        case "here": return here
        default: return nil
        }
    }

    /// Steps as paragraphs: blank lines part them, single line breaks stay, spaces at the ends go.
    static func paragraphs(_ steps: String) -> [Paragraph] {
        let normalized = steps.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        var paragraphs: [Paragraph] = []
        var lines: [String] = []
        func close() {
            if !lines.isEmpty {
                paragraphs.append(Paragraph(lines: lines.enumerated().map { Line(text: $1, last: $0 == lines.count - 1) }))
            }
            lines = []
        }
        for raw in normalized.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { close() } else { lines.append(line) }
        }
        close()
        return paragraphs
    }
}

/// The recipe page's tags are still read by swift-mustache (until recipe.mustache is compiled too).
extension RecipesPage.Chip: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "href": return href
        case "label": return label
        default: return nil
        }
    }
}
