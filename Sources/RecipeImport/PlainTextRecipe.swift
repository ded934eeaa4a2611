import Foundation

/// A recipe typed or copied as plain text. The rule, simple so it is predictable:
/// - the first non-empty line is the name ("肉じゃが（4人分）" also gives the servings);
/// - then, after blank lines, an optional "Ingredients"/"材料" heading and "Serves 4"/"4人分" line;
/// - then ingredient lines, up to a blank line or a steps heading ("Steps", "Method", "Directions",
///   "Instructions", "作り方", "手順"), of which the first `ImportedRecipe.maxIngredients` are read;
/// - everything after that is the steps, one paragraph per non-empty line (a steps heading dropped).
/// Text with a name and nothing else is no recipe.
enum PlainTextRecipe {
    static let ingredientHeadings = ["ingredients", "ingredient", "材料"]
    static let stepHeadings = ["steps", "method", "directions", "instructions", "preparation", "作り方", "つくり方", "手順"]

    static func read(_ text: String) -> ImportedRecipe? {
        let lines = text.components(separatedBy: .newlines).map { $0.trimmingCharacters(in: .whitespaces) }
        guard var i = lines.firstIndex(where: { !$0.isEmpty }) else { return nil }
        var (name, servings) = nameAndServings(lines[i])
        i += 1
        func skipBlank() { while i < lines.count, lines[i].isEmpty { i += 1 } }
        skipBlank()
        while i < lines.count, isHeading(lines[i], ingredientHeadings) || Servings.inLine(lines[i]) != nil {
            servings = servings ?? Servings.inLine(lines[i])
            i += 1
            skipBlank()
        }
        var ingredients: [ParsedIngredient] = []
        while i < lines.count, !lines[i].isEmpty, !isHeading(lines[i], stepHeadings) {
            // Lines past those a recipe keeps are passed over, not parsed.
            if ingredients.count < ImportedRecipe.maxIngredients {
                let parsed = IngredientLine.parse(lines[i])
                if !parsed.name.isEmpty { ingredients.append(parsed) }
            }
            i += 1
        }
        // Steps up to the length a recipe keeps; the rest is not looked at.
        var steps: [String] = []
        var length = 0
        for line in lines[min(i, lines.count)...] where length < ImportedRecipe.maxStepsLength && !line.isEmpty && !isHeading(line, stepHeadings) {
            steps.append(line)
            length += line.count
        }
        guard !ingredients.isEmpty || !steps.isEmpty else { return nil }
        if name.isEmpty { name = lines.first { !$0.isEmpty } ?? "" }
        return ImportedRecipe(name: name, servings: servings, ingredients: ingredients, steps: steps.joined(separator: "\n\n")).bounded()
    }

    /// A heading line: one of `words`, perhaps with a colon, "#", or a note in parentheses ("材料（2人分）").
    static func isHeading(_ line: String, _ words: [String]) -> Bool {
        var text = line.precomposedStringWithCompatibilityMapping.lowercased()
        while let first = text.first, "#*■□●◆【[".contains(first) { text.removeFirst() }
        if let parenthesis = text.firstIndex(where: { $0 == "(" }) { text = String(text[..<parenthesis]) }
        text = text.trimmingCharacters(in: CharacterSet(charactersIn: " :】]"))
        return words.contains(text)
    }

    /// "肉じゃが（4人分）" → ("肉じゃが", 4).
    static func nameAndServings(_ line: String) -> (String, Int?) {
        let folded = line.precomposedStringWithCompatibilityMapping
        guard let open = folded.lastIndex(of: "("), folded.hasSuffix(")") else { return (line, nil) }
        let inside = String(folded[folded.index(after: open)...].dropLast())
        guard let servings = Servings.inLine(inside) else { return (line, nil) }
        return (String(folded[..<open]).trimmingCharacters(in: .whitespaces), servings)
    }
}
