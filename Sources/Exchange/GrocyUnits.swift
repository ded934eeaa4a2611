import Foundation

/// Grocy's quantity units are free text each household names itself; Zaiko has ten. A unit is
/// recognised by its singular or plural name in English, German or Japanese (case, spaces and a
/// trailing dot ignored); anything else counts in pieces and is reported.
public enum GrocyUnits {
    /// Zaiko's unit for a Grocy unit name, or nil when none fits.
    public static func zaikoUnit(for names: String?...) -> String? {
        for name in names.compactMap({ $0 }) {
            if let unit = spellings[fold(name)] { return unit }
        }
        return nil
    }

    /// The ingredient unit for a Grocy unit name: Zaiko's item units, and the cooking measures
    /// (spoons, cups, a pinch) that recipes count in; nil when none fits.
    public static func ingredientUnit(for names: String?...) -> String? {
        for name in names.compactMap({ $0 }) {
            if let unit = spellings[fold(name)] ?? measures[fold(name)] { return unit }
        }
        return nil
    }

    static let measures: [String: String] = {
        let units: [String: [String]] = [
            "tbsp": ["tbsp", "tablespoon", "tablespoons", "el", "esslöffel", "大さじ", "おおさじ"],
            "tsp": ["tsp", "teaspoon", "teaspoons", "tl", "teelöffel", "小さじ", "こさじ"],
            "cup": ["cup", "cups", "tasse", "tassen", "カップ"],
            "pinch": ["pinch", "pinches", "prise", "prisen", "messerspitze", "少々", "ひとつまみ"],
        ]
        var table: [String: String] = [:]
        for (unit, names) in units { for name in names { table[name] = unit } }
        return table
    }()

    static func fold(_ name: String) -> String {
        var text = name.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    static let spellings: [String: String] = {
        let units: [String: [String]] = [
            "piece": [
                "piece", "pieces", "pc", "pcs", "unit", "units", "item", "items", "each", "stück", "stueck", "stk", "st",
                "個", "こ", "本", "枚", "点",
            ],
            "pack": ["pack", "packs", "package", "packages", "packet", "packets", "packung", "packungen", "pckg", "pkg", "パック", "袋入り", "包"],
            "bottle": ["bottle", "bottles", "flasche", "flaschen", "fl", "瓶", "びん", "ボトル"],
            "can": ["can", "cans", "tin", "tins", "dose", "dosen", "büchse", "büchsen", "缶"],
            "bag": ["bag", "bags", "sack", "sachet", "beutel", "tüte", "tüten", "袋", "ふくろ"],
            "box": ["box", "boxes", "carton", "cartons", "karton", "kartons", "schachtel", "schachteln", "箱", "ケース"],
            "g": ["g", "gr", "gram", "grams", "gramme", "grammes", "gramm", "グラム"],
            "kg": ["kg", "kilo", "kilos", "kilogram", "kilograms", "kilogramme", "kilogramm", "キロ", "キログラム"],
            "ml": ["ml", "milliliter", "milliliters", "millilitre", "millilitres", "ミリリットル"],
            "L": ["l", "liter", "liters", "litre", "litres", "ltr", "lt", "リットル"],
        ]
        var table: [String: String] = [:]
        for (unit, names) in units { for name in names { table[name] = unit } }
        return table
    }()
}
