import Foundation

/// How many a recipe serves, from what pages write: 4, "4", "4 servings", "4人分", "Serves 4-6", ["4", "4 servings"].
enum Servings {
    static func from(_ value: Any?, depth: Int = 0, budget: inout JSONLDBudget) -> Int? {
        guard let value, budget.visit(depth: depth) else { return nil }
        switch value {
        case let number as Int: return count(Double(number))
        case let number as Double: return count(number)
        case let number as NSNumber: return count(number.doubleValue)
        case let text as String: return firstNumber(in: text)
        case let list as [Any]:
            for element in list {
                if let found = from(element, depth: depth + 1, budget: &budget) { return found }
            }
            return nil
        default: return nil
        }
    }

    /// A number of servings from a JSON number, bounded while it is still a `Double`: 1 to
    /// `ImportedRecipe.maxServings`, rounded; nil for anything else (0, 1e20, NaN, infinity).
    static func count(_ number: Double) -> Int? {
        guard number.isFinite, number >= 1, number <= Double(ImportedRecipe.maxServings) else { return nil }
        return Int(number.rounded())
    }

    /// The first whole number in `text` (full-width digits too).
    static func firstNumber(in text: String) -> Int? {
        let folded = text.precomposedStringWithCompatibilityMapping
        guard let start = folded.firstIndex(where: { $0.isASCII && $0.isNumber }) else { return nil }
        let digits = folded[start...].prefix { $0.isASCII && $0.isNumber }
        return Int(digits).flatMap { $0 > 0 ? $0 : nil }
    }

    /// Words that make a line of pasted text a "serves N" line.
    static let words = ["人分", "人前", "serves", "serving", "servings", "yield", "makes", "portions"]

    /// The number of a line that says how many it serves ("4人分", "Serves 4", "材料（2人分）"), else nil.
    static func inLine(_ line: String) -> Int? {
        let lower = line.precomposedStringWithCompatibilityMapping.lowercased()
        guard words.contains(where: { lower.contains($0) }) else { return nil }
        return firstNumber(in: lower)
    }
}
