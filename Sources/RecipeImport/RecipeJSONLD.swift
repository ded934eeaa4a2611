import Foundation

/// schema.org `Recipe` in JSON-LD: where it is in a document, and what the editor needs from it.
enum RecipeJSONLD {
    /// The first Recipe object in `json`, looked for level by level: the object itself, an array of
    /// objects, `@graph`, and objects nested in others (a WebPage's `mainEntity`).
    static func find(in json: Any) -> [String: Any]? {
        var level: [Any] = [json]
        for _ in 0..<8 {
            var next: [Any] = []
            for value in level {
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

    static func read(_ object: [String: Any], baseURL: URL?) -> ImportedRecipe {
        let base = baseURL ?? webAddress(object["url"] as? String, base: nil)
        let name = HTMLText.line((object["name"] as? String) ?? (object["headline"] as? String) ?? "")
        let ingredients = lines(object["recipeIngredient"] ?? object["ingredients"]).map(IngredientLine.parse).filter { !$0.name.isEmpty }
        return ImportedRecipe(
            name: name, servings: Servings.from(object["recipeYield"] ?? object["yield"]), ingredients: ingredients,
            steps: steps(object["recipeInstructions"]).joined(separator: "\n\n"),
            imageURL: image(object["image"]).flatMap { webAddress($0, base: base) }, sourceURL: base, tags: tags(object["recipeCategory"])
        ).bounded()
    }

    /// Categories: a string (perhaps "Dessert, Snack") or an array of them; commas never inside a tag.
    static func tags(_ value: Any?) -> [String] {
        var seen = Set<String>()
        return lines(value).flatMap { $0.split(whereSeparator: { ",、，".contains($0) }) }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
    }

    /// Ingredient lines: an array of strings, or one string with a line per ingredient.
    static func lines(_ value: Any?) -> [String] {
        switch value {
        case let text as String: return HTMLText.lines(text)
        case let list as [Any]: return list.flatMap { lines($0) }
        case let object as [String: Any]: return lines(object["text"] ?? object["name"])
        default: return []
        }
    }

    /// Steps as paragraphs: one string of them all (a paragraph per line), strings, `HowToStep`s
    /// (`text`), and `HowToSection`s (their name, then their `itemListElement`). A step is one
    /// paragraph; its own line breaks (`<br>`) stay inside it.
    static func steps(_ value: Any?, whole: Bool = true) -> [String] {
        switch value {
        case let text as String:
            let lines = HTMLText.lines(text)
            if whole { return lines }
            return lines.isEmpty ? [] : [lines.joined(separator: "\n")]
        case let list as [Any]: return list.flatMap { steps($0, whole: false) }
        case let object as [String: Any]:
            if let elements = object["itemListElement"] {
                let heading = (object["name"] as? String).map(HTMLText.line).flatMap { $0.isEmpty ? nil : $0 }
                return (heading.map { [$0] } ?? []) + steps(elements, whole: false)
            }
            return steps(object["text"] ?? object["name"] ?? object["description"], whole: false)
        default: return []
        }
    }

    /// The picture's address: a string, an `ImageObject` (`url`, `contentUrl`), or the first of an array.
    static func image(_ value: Any?) -> String? {
        switch value {
        case let text as String: return text
        case let object as [String: Any]: return image(object["url"] ?? object["contentUrl"])
        case let list as [Any]: return list.lazy.compactMap { image($0) }.first
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
