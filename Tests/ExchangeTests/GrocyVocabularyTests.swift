import Exchange
import Testing

/// Grocy's unit, product group and location names as households write them.
@Suite struct GrocyVocabularyTests {
    @Test(arguments: [
        ("Piece", "piece"), ("Stück", "piece"), ("Stk.", "piece"), ("個", "piece"), ("Pack", "pack"), ("Packung", "pack"),
        ("パック", "pack"), ("Bottle", "bottle"), ("Flaschen", "bottle"), ("瓶", "bottle"), ("Tin", "can"), ("Dose", "can"),
        ("缶", "can"), ("Bag", "bag"), ("Tüte", "bag"), ("袋", "bag"), ("Box", "box"), ("Karton", "box"), ("箱", "box"),
        ("Gram", "g"), ("Gramm", "g"), ("ｇ", "g"), ("グラム", "g"), ("Kilogram", "kg"), ("Kilogramm", "kg"), ("kg", "kg"),
        ("Milliliter", "ml"), ("millilitres", "ml"), ("ミリリットル", "ml"), ("Liter", "L"), ("Litre", "L"), ("L", "L"),
        ("リットル", "L"),
    ])
    func unitNamesMapToZaikosUnits(name: String, unit: String) {
        #expect(GrocyUnits.zaikoUnit(for: name) == unit)
    }

    @Test func unitsWithoutAZaikoUnitAreNil() {
        for name in ["Prise", "Bund", "Glass", "Scheibe", "つまみ", ""] { #expect(GrocyUnits.zaikoUnit(for: name) == nil, "\(name)") }
        // The plural name counts too.
        #expect(GrocyUnits.zaikoUnit(for: "Becher", "Packs") == "pack")
    }

    @Test func productGroupsGiveKinds() {
        #expect(GrocyKinds.kind(forGroup: "03 Meat/Fish") == .meat)
        #expect(GrocyKinds.kind(forGroup: "Fisch") == .fish)
        #expect(GrocyKinds.kind(forGroup: "Milchprodukte") == .dairyEggs)
        #expect(GrocyKinds.kind(forGroup: "04 Vegetables/Fruits") == .vegetables)
        #expect(GrocyKinds.kind(forGroup: "Obst") == .fruit)
        #expect(GrocyKinds.kind(forGroup: "06 Beverages") == .drinks)
        #expect(GrocyKinds.kind(forGroup: "調味料") == .seasonings)
        #expect(GrocyKinds.kind(forGroup: "02 Convenience products") == .prepared)
        #expect(GrocyKinds.kind(forGroup: "01 Sweets") == .other)
        #expect(GrocyKinds.kind(forGroup: nil) == .other)
    }

    @Test func locationsGiveIcons() {
        #expect(GrocyKinds.icon(forLocation: "Keller", isFreezer: true) == "freezer")
        #expect(GrocyKinds.icon(forLocation: "Kühlschrank", isFreezer: false) == "fridge")
        #expect(GrocyKinds.icon(forLocation: "冷蔵庫", isFreezer: false) == "fridge")
        #expect(GrocyKinds.icon(forLocation: "Vorratskammer", isFreezer: false) == "pantry")
        #expect(GrocyKinds.icon(forLocation: "Garden shed", isFreezer: false) == "box")
    }
}
