import Foundation
import Inventory

/// /recipes/{id}: the ingredient list against the stock (the heart of it), the servings stepper,
/// Cook and "add what's missing" for writers, the steps as paragraphs.
struct RecipePage: CompiledPage {
    /// One ingredient: its scaled amount, its standing in words, the items it matched.
    struct Ingredient: Sendable {
        let name: String
        let amount: String?
        let note: String?
        let standing: RecipeWords.Standing
        let fresh: [Match]
        /// "1 expired in 冷蔵庫": the expired matches, apart, by folder.
        let expiredNote: String?
        let expired: [Match]

        var standingKey: String { standing.key }
        var standingMark: String { standing.mark }
        var standingText: String { standing.text }
        var hasFresh: Bool { !fresh.isEmpty }
    }

    /// A stock item an ingredient matched: link, quantity, folder, due date (with its word).
    struct Match: Sendable {
        let href: String
        let name: String
        let quantity: String
        let folder: String
        let due: String?
        let dueState: String
        let dueWord: String?
    }

    /// A paragraph of the steps, as lines (a single line break is kept as one).
    struct Paragraph: Sendable {
        let lines: [Line]
    }

    struct Line: Sendable {
        let text: String
        let last: Bool
    }

    /// A notice from the address (saved, cooked, undone, added), with its optional action.
    struct Notice: Sendable {
        let text: String
        /// "Undo" of a cook: where it posts.
        let undoAction: String?
        /// "Added 2 to Supermarket": the list it names.
        let link: String?
        let linkText: String?
        /// The words after the link.
        let after: String?
    }

    let id: Recipe.ID
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
    /// The meal plan reserves some of what this recipe matches: said, with the toggle to ignore it.
    let planHint: PlanHint?

    struct PlanHint: Sendable {
        let text: String
        let href: String
        let label: String
    }

    func title(_ t: Catalog) -> String { name }

    var hasTags: Bool { !tags.isEmpty }
    var hasIngredients: Bool { !ingredients.isEmpty }
    var hasSteps: Bool { !paragraphs.isEmpty }
    var hasShoppingLists: Bool { !shoppingLists.isEmpty }

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
