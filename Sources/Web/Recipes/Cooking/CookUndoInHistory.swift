import Foundation
import Inventory
import Mustache

/// "Undo" beside an item's history line that a cook wrote, while that cook is not undone yet:
/// one tap gives back everything the cook took (from every item it touched, not only this one).
struct CookUndoInHistory: Sendable {
    let cooking: Cooking

    /// The undo button for each cook in `events` that can still be undone, by cook id.
    func buttons(for events: [ItemEvent], itemId: Int64, householdId: Int64, t: Catalog) throws -> [Int64: CookUndoButton] {
        var buttons: [Int64: CookUndoButton] = [:]
        for cookId in Set(events.compactMap(\.cookId)) {
            let cook = try cooking.cook(cookId, householdId: householdId)
            guard cook.undoneAt == nil else { continue }
            buttons[cookId] = CookUndoButton(
                cookId: cookId, back: "/items/\(itemId)", label: t.format("cook_undo_label", ["name": cook.recipeName]))
        }
        return buttons
    }
}

/// The form that undoes a cook from an item's history, coming back to the item.
struct CookUndoButton: MustacheParent, Sendable {
    let cookId: Int64
    let back: String
    /// "Undo cooking Apple juice": the button's name for screen readers.
    let label: String

    func child(named key: String) -> Any? {
        switch key {
        case "cookId": return cookId
        case "back": return back
        case "label": return label
        default: return nil
        }
    }
}
