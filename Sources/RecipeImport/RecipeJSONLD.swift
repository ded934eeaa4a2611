import Foundation

/// schema.org `Recipe` in JSON-LD: where it is in a document, and what the editor needs from it.
enum RecipeJSONLD {
    /// The first Recipe object in `json`, looked for level by level: the object itself, an array of
    /// objects, `@graph`, and objects nested in others (a WebPage's `mainEntity`).
    static func find(in json: Any, budget: inout JSONLDBudget) -> [String: Any]? {
        var level: [Any] = [json]
        for depth in 0...JSONLDBudget.maxDepth {
            var next: [Any] = []
            for value in level {
                guard budget.visit(depth: depth) else { return nil }
                if let object = value as? [String: Any] {
                    if isRecipe(object) { return object }
                    next += Array(object.values)
                } else if let array = value as? [Any] {
                    next += array
                }
            }
            if next.isEmpty { return nil }
            level = next
        }
        return nil
    }

    static func types(_ object: [String: Any]) -> [String] {
        switch object["@type"] {
        case let type as String: return [type]
        case let types as [Any]: return types.compactMap { $0 as? String }
        default: return []
        }
    }

    /// "Recipe", "schema:Recipe", "http://schema.org/Recipe".
    static func isRecipe(_ object: [String: Any]) -> Bool {
        types(object).contains { $0 == "Recipe" || $0.hasSuffix(":Recipe") || $0.hasSuffix("/Recipe") }
    }

    static func read(_ object: [String: Any], baseURL: URL?, budget: inout JSONLDBudget) -> ImportedRecipe {
        let base = baseURL ?? webAddress(object["url"] as? String, base: nil)
        let name = HTMLText.line((object["name"] as? String) ?? (object["headline"] as? String) ?? "")
        // Only as many lines as a recipe keeps are read.
        let ingredients = lines(object["recipeIngredient"] ?? object["ingredients"], budget: &budget).prefix(ImportedRecipe.maxIngredients)
            .map(IngredientLine.parse).filter { !$0.name.isEmpty }
        let servings = Servings.from(object["recipeYield"] ?? object["yield"], budget: &budget)
        let steps = steps(object["recipeInstructions"], budget: &budget).joined(separator: "\n\n")
        let imageURL = image(object["image"], budget: &budget).flatMap { webAddress($0, base: base) }
        var tags: [String] = []
        for kinds in [object["recipeCategory"], object["recipeCuisine"], object["keywords"]] { tags += self.tags(kinds, budget: &budget) }
        return ImportedRecipe(
            name: name, servings: servings, ingredients: Array(ingredients), steps: steps, imageURL: imageURL, sourceURL: base,
            tags: tags
        ).bounded()
    }

    /// Tags from a category, cuisine or keywords: a string (perhaps "Dessert, Snack") or an array of
    /// them; commas never inside a tag.
    static func tags(_ value: Any?, budget: inout JSONLDBudget) -> [String] {
        lines(value, budget: &budget).flatMap { $0.split(whereSeparator: { ",、，".contains($0) }) }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Ingredient lines: an array of strings, or one string with a line per ingredient. An array
    /// is read up to the `ImportedRecipe.maxIngredients` lines a recipe keeps.
    static func lines(_ value: Any?, depth: Int = 0, budget: inout JSONLDBudget) -> [String] {
        guard let value, budget.visit(depth: depth) else { return [] }
        switch value {
        case let text as String: return HTMLText.lines(text)
        case let list as [Any]:
            var found: [String] = []
            for element in list where found.count < ImportedRecipe.maxIngredients { found += lines(element, depth: depth + 1, budget: &budget) }
            return found
        case let object as [String: Any]: return lines(object["text"] ?? object["name"], depth: depth + 1, budget: &budget)
        default: return []
        }
    }

    /// Steps as paragraphs: one string of them all (a paragraph per line), strings, `HowToStep`s
    /// (`text`), and `HowToSection`s (their name, then their `itemListElement`). A step is one
    /// paragraph; its own line breaks (`<br>`) stay inside it. An array is read up to the
    /// `ImportedRecipe.maxStepsLength` characters a recipe keeps.
    static func steps(_ value: Any?, whole: Bool = true, depth: Int = 0, budget: inout JSONLDBudget) -> [String] {
        guard let value, budget.visit(depth: depth) else { return [] }
        switch value {
        case let text as String:
            let lines = HTMLText.lines(text)
            if whole { return lines }
            return lines.isEmpty ? [] : [lines.joined(separator: "\n")]
        case let list as [Any]:
            var found: [String] = []
            var length = 0
            for element in list where length < ImportedRecipe.maxStepsLength {
                let more = steps(element, whole: false, depth: depth + 1, budget: &budget)
                length += more.reduce(0) { $0 + $1.count }
                found += more
            }
            return found
        case let object as [String: Any]:
            if let elements = object["itemListElement"] {
                let heading = (object["name"] as? String).map(HTMLText.line).flatMap { $0.isEmpty ? nil : $0 }
                return (heading.map { [$0] } ?? []) + steps(elements, whole: false, depth: depth + 1, budget: &budget)
            }
            return steps(object["text"] ?? object["name"] ?? object["description"], whole: false, depth: depth + 1, budget: &budget)
        default: return []
        }
    }

    /// The picture's address: a string, an `ImageObject` (`url`, `contentUrl`), or the first of an array.
    static func image(_ value: Any?, depth: Int = 0, budget: inout JSONLDBudget) -> String? {
        guard let value, budget.visit(depth: depth) else { return nil }
        switch value {
        case let text as String: return text
        case let object as [String: Any]: return image(object["url"] ?? object["contentUrl"], depth: depth + 1, budget: &budget)
        case let list as [Any]:
            for element in list {
                if let found = image(element, depth: depth + 1, budget: &budget) { return found }
            }
            return nil
        default: return nil
        }
    }

    /// `text` as an absolute http or https address, relative ones resolved against `base`.
    static func webAddress(_ text: String?, base: URL?) -> URL? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty,
            let url = URL(string: HTMLText.decode(text), relativeTo: base)?.absoluteURL,
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else { return nil }
        return url
    }
}
