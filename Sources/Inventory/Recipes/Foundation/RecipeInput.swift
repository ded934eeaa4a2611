/// A recipe as the editor holds it: the text the person typed (so a refused form shows it back as
/// typed), from the form, from an import, or from a stored recipe. `Recipes.save` checks it.
public struct RecipeInput: Sendable, Equatable {
    public var name: String
    public var servings: String
    public var steps: String
    public var sourceUrl: String
    public var picture: Picture?
    /// Kinds and tags as typed, separated by commas (、，, too).
    public var tags: String
    public var ingredients: [IngredientInput]
    /// Empty `produce.name`: the recipe makes nothing.
    public var produce: ProduceInput

    public init(
        name: String = "", servings: String = "2", steps: String = "", sourceUrl: String = "", picture: Picture? = nil, tags: String = "",
        ingredients: [IngredientInput] = [], produce: ProduceInput = ProduceInput()
    ) {
        self.name = name
        self.servings = servings
        self.steps = steps
        self.sourceUrl = sourceUrl
        self.picture = picture
        self.tags = tags
        self.ingredients = ingredients
        self.produce = produce
    }
}

/// One ingredient line of the editor, as typed.
public struct IngredientInput: Sendable, Equatable {
    public var name: String
    /// As typed ("200", "0.5", "1/2", "２００"); empty: only needs to be there.
    public var amount: String
    /// An `IngredientUnit` code, or empty.
    public var unit: String
    public var note: String
    /// A remembered product of the household, instead of matching by name.
    public var productId: Product.ID?

    public init(name: String = "", amount: String = "", unit: String = "", note: String = "", productId: Product.ID? = nil) {
        self.name = name
        self.amount = amount
        self.unit = unit
        self.note = note
        self.productId = productId
    }
}

/// The item a recipe makes, as typed.
public struct ProduceInput: Sendable, Equatable {
    public var name: String
    public var quantity: String
    public var unit: String
    public var kind: String
    /// Days until due, as typed; empty: no due date.
    public var dueDays: String
    public var folderId: Folder.ID?

    public init(name: String = "", quantity: String = "1", unit: String = "piece", kind: String = "prepared", dueDays: String = "", folderId: Folder.ID? = nil)
    {
        self.name = name
        self.quantity = quantity
        self.unit = unit
        self.kind = kind
        self.dueDays = dueDays
        self.folderId = folderId
    }
}
