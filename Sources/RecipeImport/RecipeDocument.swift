import Foundation

/// Reads a recipe from what a person gives Zaiko: a fetched page, or pasted text that may be the
/// page's HTML, a bare JSON-LD document, or plain text.
public enum RecipeDocument {
    /// The schema.org Recipe of the page's JSON-LD blocks (the first block that has one), with its
    /// picture made absolute against `baseURL`, which is also the recipe's source. Nil: no recipe data.
    public static func read(html: String, baseURL: URL?) -> ImportedRecipe? {
        var budget = JSONLDBudget()
        for text in JSONLDBlocks.texts(in: html) {
            if let json = JSONLDBlocks.json(text), let object = RecipeJSONLD.find(in: json, budget: &budget) {
                return RecipeJSONLD.read(object, baseURL: baseURL, budget: &budget)
            }
        }
        return nil
    }

    /// A bare JSON-LD document (pasted, or a site answering with it).
    static func read(json: String, baseURL: URL?) -> ImportedRecipe? {
        var budget = JSONLDBudget()
        guard let value = JSONLDBlocks.json(json), let object = RecipeJSONLD.find(in: value, budget: &budget) else { return nil }
        return RecipeJSONLD.read(object, baseURL: baseURL, budget: &budget)
    }

    /// Pasted text: a JSON-LD document (starts with `{` or `[`), a page's HTML (has a `<script` or
    /// `<html`), else plain text (see `PlainTextRecipe`). Nil: nothing that makes a recipe.
    public static func read(text: String) -> ImportedRecipe? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") { return read(json: trimmed, baseURL: nil) }
        let lower = trimmed.prefix(200_000).lowercased()
        if lower.contains("<script") || lower.contains("<html") || lower.hasPrefix("<!doctype") {
            return read(html: trimmed, baseURL: nil)
        }
        return PlainTextRecipe.read(trimmed)
    }
}
