import Foundation
import HTTPServer
import Inventory

/// The filters of /recipes as the address carries them (`q`, `state`, `tag`, `ingredient`), and
/// links that change one of them while keeping the others, so a tap on a chip never loses the rest.
struct RecipesQuery: Sendable, Equatable {
    var text = ""
    var state: RecipeReadiness?
    var tag: String?
    var ingredient: String?
    /// Which page of thirty, from 1.
    var page = 1
    /// Count what the meal plan reserves as free (`plan=ignore`).
    var ignoresPlan = false

    init(text: String = "", state: RecipeReadiness? = nil, tag: String? = nil, ingredient: String? = nil) {
        self.text = text
        self.state = state
        self.tag = tag
        self.ingredient = ingredient
    }

    /// From the address; an unknown state reads as none, blank values as absent.
    init(_ query: Parameters) {
        func value(_ name: String) -> String? {
            let text = (query[name] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty ? nil : String(text.prefix(100))
        }
        text = value("q") ?? ""
        state = value("state").flatMap(RecipeReadiness.init(rawValue:))
        tag = value("tag")
        ingredient = value("ingredient")
        page = max(1, value("page").flatMap { $0.utf8.count <= 6 ? Int($0) : nil } ?? 1)
        ignoresPlan = value("plan") == "ignore"
    }

    /// What the domain filters by; readiness is left to the page, which counts every state for its chips.
    var filter: RecipeFilter { RecipeFilter(readiness: nil, tag: tag, text: text, ingredient: ingredient, ignoresPlan: ignoresPlan) }

    var isFiltered: Bool { !text.isEmpty || state != nil || tag != nil || ingredient != nil }

    /// This page's address with these filters.
    var link: String {
        var items: [(String, String)] = []
        if let ingredient { items.append(("ingredient", ingredient)) }
        if let state { items.append(("state", state.rawValue)) }
        if let tag { items.append(("tag", tag)) }
        if !text.isEmpty { items.append(("q", text)) }
        if page > 1 { items.append(("page", "\(page)")) }
        if ignoresPlan { items.append(("plan", "ignore")) }
        return Self.link(items)
    }

    /// The same recipes counting the plan's reservations, or ignoring them.
    func with(ignoresPlan: Bool) -> RecipesQuery {
        var copy = self
        copy.ignoresPlan = ignoresPlan
        copy.page = 1
        return copy
    }

    /// Another state: from its first page.
    func with(state: RecipeReadiness?) -> RecipesQuery {
        var copy = self
        copy.state = state
        copy.page = 1
        return copy
    }

    /// Another kind: from its first page.
    func with(tag: String?) -> RecipesQuery {
        var copy = self
        copy.tag = tag
        copy.page = 1
        return copy
    }

    func with(page: Int) -> RecipesQuery {
        var copy = self
        copy.page = page
        return copy
    }

    /// /recipes?ingredient=<name>: the recipes that use an item ("Recipes with this").
    static func forIngredient(_ name: String) -> String { link([("ingredient", name)]) }

    private static func link(_ items: [(String, String)]) -> String {
        guard !items.isEmpty else { return Route.Recipes.path }
        return Route.Recipes.path + "?"
            + items.map { $0.0 + "=" + ($0.1.addingPercentEncoding(withAllowedCharacters: valueCharacters) ?? "") }.joined(separator: "&")
    }

    /// What a query value keeps as it is: `+` stands for a space and `&`, `=`, `#` end a value,
    /// so they are spelled out ("C++" stays itself).
    private static let valueCharacters = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+#"))
}
