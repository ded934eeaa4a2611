import Foundation
import Inventory

/// An item's history line that a cook wrote says which recipe, and offers "Undo" while that cook is
/// not undone yet: one tap gives back everything the cook took (from every item it touched).
struct CookUndoInHistory: Sendable {
    let cooking: Cooking

    /// What to show beside each cook's lines in `events`, by cook id; Undo only for `canWrite`.
    func notes(for events: [ItemEvent], itemId: Int64, in scope: HouseholdScope, canWrite: Bool, t: Catalog) throws -> [Int64: CookUndoButton] {
        var notes: [Int64: CookUndoButton] = [:]
        for cookId in Set(events.compactMap(\.cookId)) {
            let cook = try cooking.cook(cookId, in: scope)
            notes[cookId] = CookUndoButton(
                cookId: cookId, back: Route.item(itemId).path, label: t.format(.cookUndoLabel, ["name": cook.recipeName]),
                text: t.format(cook.undoneAt == nil ? .cookHistoryCooked : .cookHistoryUndone, ["name": cook.recipeName]),
                undoable: canWrite && cook.undoneAt == nil)
        }
        return notes
    }
}

/// Which cook wrote a history line, and the form that undoes it, coming back to the item.
struct CookUndoButton: Sendable {
    let cookId: Int64
    let back: String
    /// "Undo cooking Apple juice": the button's name for screen readers.
    let label: String
    /// "Cooking Apple juice" (or "…, undone").
    let text: String
    let undoable: Bool
}
