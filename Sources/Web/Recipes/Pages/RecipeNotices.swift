import HTTPServer
import Inventory

/// The notices a recipe page shows after something happened elsewhere, read from its address:
/// `saved=1` (the editor), `cooked=<cook>&taken=<n>` with Undo, `undone=1`,
/// `added=<n>&list=<folder>` naming and linking the shopping list. Only numbers and known lists
/// are taken from the address, so it cannot put words of its own in the page.
enum RecipeNotices {
    static func from(_ query: Parameters, shopping: [Folder], t: Catalog) -> [RecipePage.Notice] {
        var notices: [RecipePage.Notice] = []
        if query["saved"] == "1" { notices.append(.init(text: t[.recipesSaved], undoAction: nil, link: nil, linkText: nil, after: nil)) }
        if let cook = number(query["cooked"]) {
            let taken = number(query["taken"]) ?? 0
            notices.append(
                .init(text: t.count(.recipesCooked, Int(taken)), undoAction: Route.cook(Cook.ID(rawValue: cook)).undo, link: nil, linkText: nil, after: nil))
        }
        if query["undone"] == "1" { notices.append(.init(text: t[.recipesUndone], undoAction: nil, link: nil, linkText: nil, after: nil)) }
        if let added = number(query["added"]) {
            let list = number(query["list"]).flatMap { id in shopping.first { $0.id.rawValue == id } }
            if added == 0 {
                notices.append(.init(text: t[.recipesAddedNone], undoAction: nil, link: nil, linkText: nil, after: nil))
            } else if let list {
                // The list's name is a link in the middle of the sentence, wherever the language puts it.
                let text = t.count(.recipesAdded, Int(added), ["list": "\u{0}"])
                let parts = text.split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                notices.append(
                    .init(
                        text: parts[0], undoAction: nil, link: Route.folder(list.id).path, linkText: displayName(list, t),
                        after: parts.count > 1 ? parts[1] : nil))
            } else {
                notices.append(.init(text: t.count(.recipesAddedSomewhere, Int(added)), undoAction: nil, link: nil, linkText: nil, after: nil))
            }
        }
        return notices
    }

    private static func number(_ text: String?) -> Int64? {
        guard let text, let value = Int64(text), value >= 0 else { return nil }
        return value
    }
}
