/// The words ingredient lines use for units, in English and Japanese (after NFKC folding, so
/// full-width forms are already plain), and the unit code each stands for.
enum UnitWords {
    /// What a unit word means for the recipe.
    enum Meaning: Equatable {
        /// One of the recipe units.
        case unit(String)
        /// A weight the recipe units do not have: converted to grams by this factor, the words kept in the note.
        case grams(Double)
        /// A measure no recipe unit stands for (合, 杯): the quantity stays in the note.
        case noteOnly
    }

    /// Written after a number; ASCII words need a word boundary after them ("g" is not the start of "garlic").
    /// Longest first, so "cups" wins over "cup" and "kg" over "g".
    static let afterNumber: [(word: String, meaning: Meaning)] = {
        let pairs: [(String, Meaning)] = [
            ("tablespoons", .unit("tbsp")), ("tablespoon", .unit("tbsp")), ("tbsps", .unit("tbsp")), ("tbsp", .unit("tbsp")),
            ("tbs", .unit("tbsp")), ("tbl", .unit("tbsp")),
            ("teaspoons", .unit("tsp")), ("teaspoon", .unit("tsp")), ("tsps", .unit("tsp")), ("tsp", .unit("tsp")),
            ("cups", .unit("cup")), ("cup", .unit("cup")),
            ("kilograms", .unit("kg")), ("kilogram", .unit("kg")), ("kgs", .unit("kg")), ("kg", .unit("kg")),
            ("grams", .unit("g")), ("gram", .unit("g")), ("gr", .unit("g")), ("g", .unit("g")),
            ("milliliters", .unit("ml")), ("millilitres", .unit("ml")), ("milliliter", .unit("ml")), ("millilitre", .unit("ml")),
            ("ml", .unit("ml")), ("cc", .unit("ml")),
            ("liters", .unit("L")), ("litres", .unit("L")), ("liter", .unit("L")), ("litre", .unit("L")), ("l", .unit("L")),
            ("pinches", .unit("pinch")), ("pinch", .unit("pinch")), ("dashes", .unit("pinch")), ("dash", .unit("pinch")),
            ("pieces", .unit("piece")), ("piece", .unit("piece")), ("pcs", .unit("piece")), ("pc", .unit("piece")),
            ("cloves", .unit("piece")), ("clove", .unit("piece")), ("slices", .unit("piece")), ("slice", .unit("piece")),
            ("heads", .unit("piece")), ("head", .unit("piece")), ("stalks", .unit("piece")), ("stalk", .unit("piece")),
            ("sprigs", .unit("piece")), ("sprig", .unit("piece")), ("bunches", .unit("piece")), ("bunch", .unit("piece")),
            ("leaves", .unit("piece")), ("leaf", .unit("piece")), ("sheets", .unit("piece")), ("sheet", .unit("piece")),
            ("fillets", .unit("piece")), ("fillet", .unit("piece")),
            ("packages", .unit("pack")), ("package", .unit("pack")), ("packets", .unit("pack")), ("packet", .unit("pack")),
            ("packs", .unit("pack")), ("pack", .unit("pack")), ("pkg", .unit("pack")),
            ("bottles", .unit("bottle")), ("bottle", .unit("bottle")),
            ("cans", .unit("can")), ("can", .unit("can")), ("tins", .unit("can")), ("tin", .unit("can")),
            ("bags", .unit("bag")), ("bag", .unit("bag")), ("boxes", .unit("box")), ("box", .unit("box")),
            ("ounces", .grams(28.35)), ("ounce", .grams(28.35)), ("oz", .grams(28.35)),
            ("pounds", .grams(453.6)), ("pound", .grams(453.6)), ("lbs", .grams(453.6)), ("lb", .grams(453.6)),
            // Japanese, after a number: 200グラム, 2個, 1/2本 (本 is a count: a carrot, a leek, a bottle of milk alike).
            ("キログラム", .unit("kg")), ("キロ", .unit("kg")), ("グラム", .unit("g")),
            ("ミリリットル", .unit("ml")), ("リットル", .unit("L")), ("カップ", .unit("cup")),
            ("個分", .unit("piece")), ("個", .unit("piece")), ("コ", .unit("piece")), ("ヶ", .unit("piece")), ("つ", .unit("piece")),
            ("本", .unit("piece")), ("枚", .unit("piece")), ("玉", .unit("piece")), ("株", .unit("piece")), ("束", .unit("piece")),
            ("把", .unit("piece")), ("片", .unit("piece")), ("かけ", .unit("piece")), ("切れ", .unit("piece")), ("切", .unit("piece")),
            ("丁", .unit("piece")), ("尾", .unit("piece")), ("匹", .unit("piece")), ("羽", .unit("piece")), ("房", .unit("piece")),
            ("粒", .unit("piece")), ("パック", .unit("pack")), ("袋", .unit("bag")), ("箱", .unit("box")), ("缶", .unit("can")),
            ("ボトル", .unit("bottle")), ("瓶", .unit("bottle")), ("びん", .unit("bottle")),
            ("合", .noteOnly), ("杯", .noteOnly),
        ]
        return pairs.sorted { $0.0.count > $1.0.count }.map { (word: $0.0, meaning: $0.1) }
    }()

    /// Japanese measures written before their number: 大さじ2, 小さじ1/2, カップ1, and the short 大1 / 小1/2.
    static let beforeNumber: [(word: String, unit: String)] = [
        ("大さじ", "tbsp"), ("大匙", "tbsp"), ("小さじ", "tsp"), ("小匙", "tsp"), ("カップ", "cup"), ("大", "tbsp"), ("小", "tsp"),
    ]

    /// Amounts that are no number: only the ingredient's presence matters.
    static let presence: [(word: String, unit: String)] = [
        ("ひとつまみ", "pinch"), ("一つまみ", "pinch"), ("少々", "pinch"), ("少量", "pinch"), ("少し", "pinch"),
        ("お好みで", "to_taste"), ("好みで", "to_taste"), ("お好み", "to_taste"), ("適量", "to_taste"), ("適宜", "to_taste"),
    ]

    /// English phrases for "as much as you like", at the end of a line or after its comma.
    static let tastePhrases = ["to taste", "as needed", "as required", "as desired", "for seasoning"]

    /// Words between a number and a Japanese measure that only say "about" or "a little more/less".
    static let approximateAfter = ["程度", "くらい", "ぐらい", "位", "ほど"]
    static let moreOrLessAfter = ["強", "弱"]

    /// English number words at the start of a line ("a pinch", "an onion", "two eggs").
    static let numberWords: [String: Double] = [
        "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
        "ten": 10, "eleven": 11, "twelve": 12, "half": 0.5, "dozen": 12,
    ]
}
