import Foundation

/// A recipe as read from a page or pasted text, before anyone checked it: what the editor is filled with.
public struct ImportedRecipe: Sendable, Equatable {
    public var name: String
    public var servings: Int?
    public var ingredients: [ParsedIngredient]
    /// Plain text, one paragraph per step, paragraphs separated by a blank line.
    public var steps: String
    /// The picture the recipe names, absolute (http or https), not yet fetched.
    public var imageURL: URL?
    /// Where the recipe came from: the page's address.
    public var sourceURL: URL?
    /// Kinds the page gives it (schema.org `recipeCategory`, `recipeCuisine` and `keywords`: "Dessert", "主菜"), each once.
    public var tags: [String]

    public init(
        name: String, servings: Int? = nil, ingredients: [ParsedIngredient] = [], steps: String = "", imageURL: URL? = nil, sourceURL: URL? = nil,
        tags: [String] = []
    ) {
        self.name = name
        self.servings = servings
        self.ingredients = ingredients
        self.steps = steps
        self.imageURL = imageURL
        self.sourceURL = sourceURL
        self.tags = tags
    }

    /// Limits that keep a hostile page from filling the editor (and the draft store) without end;
    /// the lengths are those a recipe may be saved with.
    public static let maxNameLength = 100
    public static let maxNoteLength = 200
    public static let maxSourceLength = 2000
    public static let maxIngredients = 100
    public static let maxStepsLength = 20_000
    public static let maxTags = 5
    public static let maxTagLength = 40
    public static let maxServings = 1000
    /// The largest amount an ingredient line may give: Zaiko's largest quantity (Inventory's
    /// `Quantity.maximum`; a test checks they agree). A larger number is kept as written, in the note.
    public static let maxAmount = 1_000_000.0

    /// The same recipe cut to the limits above.
    func bounded() -> ImportedRecipe {
        var recipe = self
        recipe.name = String(name.prefix(Self.maxNameLength))
        recipe.ingredients = ingredients.prefix(Self.maxIngredients).map {
            ParsedIngredient(
                name: String($0.name.prefix(Self.maxNameLength)), amount: $0.amount, unit: $0.unit, note: String($0.note.prefix(Self.maxNoteLength)))
        }
        if let source = sourceURL, source.absoluteString.count > Self.maxSourceLength { recipe.sourceURL = nil }
        recipe.steps = String(steps.prefix(Self.maxStepsLength))
        var seen = Set<String>()
        let cut = tags.map { String($0.prefix(Self.maxTagLength)) }
        recipe.tags = Array(cut.filter { seen.insert($0.lowercased()).inserted }.prefix(Self.maxTags))
        if let servings, !(1...Self.maxServings).contains(servings) { recipe.servings = nil }
        return recipe
    }
}
