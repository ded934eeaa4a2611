import Foundation
import Inventory

/// Zaiko's kind for a Grocy product group, and an icon for a Grocy location, guessed from their
/// names (English, German, Japanese; Grocy's demo groups are numbered "03 Meat/Fish"). The first
/// word that matches wins; a name that matches none is "other" and the box icon.
public enum GrocyKinds {
    public static func kind(forGroup name: String?) -> ItemKind {
        guard let name else { return .other }
        let folded = GrocyUnits.fold(name)
        for (kind, words) in kindWords where words.contains(where: { folded.contains($0) }) { return kind }
        return .other
    }

    /// In order: "Meat/Fish" is meat, "Milk & eggs" dairy.
    static let kindWords: [(ItemKind, [String])] = [
        (.meat, ["meat", "sausage", "fleisch", "wurst", "肉"]),
        (.fish, ["fish", "seafood", "fisch", "meeresfrüchte", "魚", "海鮮"]),
        (.dairyEggs, ["dairy", "milk", "cheese", "egg", "refrigerated", "molkerei", "milchprodukt", "käse", "eier", "kühlprodukt", "乳", "卵", "チーズ"]),
        (.vegetables, ["vegetable", "veggie", "gemüse", "野菜"]),
        (.fruit, ["fruit", "obst", "früchte", "果物", "フルーツ"]),
        (.drinks, ["drink", "beverage", "getränk", "飲み物", "飲料", "ドリンク"]),
        (.seasonings, ["spice", "seasoning", "condiment", "sauce", "gewürz", "würz", "調味料", "スパイス"]),
        (.prepared, ["convenience", "ready meal", "prepared", "frozen", "fertig", "tiefkühl", "惣菜", "冷凍食品", "レトルト"]),
    ]

    /// A stock list's icon: the freezer for a Grocy freezer, else one guessed from the name.
    public static func icon(forLocation name: String, isFreezer: Bool) -> String {
        if isFreezer { return "freezer" }
        let folded = GrocyUnits.fold(name)
        for (icon, words) in locationWords where words.contains(where: { folded.contains($0) }) { return icon }
        return "box"
    }

    static let locationWords: [(String, [String])] = [
        ("freezer", ["freezer", "gefrier", "tiefkühl", "冷凍"]),
        ("fridge", ["fridge", "refrigerator", "kühlschrank", "冷蔵"]),
        ("pantry", ["pantry", "larder", "vorrat", "speisekammer", "パントリー", "食品庫"]),
        ("cupboard", ["cupboard", "cabinet", "schrank", "戸棚"]),
        ("shelf", ["shelf", "regal", "棚"]),
        ("bathroom", ["bathroom", "badezimmer", "浴室", "洗面"]),
        ("garage", ["garage", "ガレージ"]),
        ("cleaning", ["cleaning", "putz", "掃除"]),
    ]
}
