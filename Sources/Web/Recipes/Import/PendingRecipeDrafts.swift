import Inventory

/// Imported recipes kept between the import's 303 and the editor that opens the draft, as the
/// editor's own values (`RecipeInput`, the picture already stored through the photo pipeline), one
/// per session (see `SessionBoundStore`). A reload of the editor after it took the draft shows an
/// empty editor, not a second copy. A photo stored for a draft that is never saved is an orphan the
/// photo store's collection removes.
public typealias PendingRecipeDrafts = SessionBoundStore<RecipeInput>

extension RecipeInput: HeldInMemory {
    /// The text it holds: a pasted recipe's size is its steps and ingredient lines.
    public var heldBytes: Int {
        let text = [name, servings, steps, sourceUrl, tags, produce.name].reduce(0) { $0 + $1.utf8.count }
        return ingredients.reduce(text) { $0 + $1.name.utf8.count + $1.amount.utf8.count + $1.unit.utf8.count + $1.note.utf8.count }
    }
}
