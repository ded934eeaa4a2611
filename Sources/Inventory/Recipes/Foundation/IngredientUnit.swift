/// The units an ingredient may be measured in: every item unit, plus cooking measures.
/// Amounts compare within a dimension (g ↔ kg, ml ↔ L); count units (piece, pack, …) only with
/// themselves. Cooking measures (spoons, cups, a pinch, to taste) only need the ingredient to be
/// there: stock is not kept in spoons, so cooking never subtracts them.
public enum IngredientUnit: String, CaseIterable, Sendable, Codable {
    case piece, pack, bottle, can, bag, box, g, kg, ml, L
    case tbsp, tsp, cup, pinch
    case toTaste = "to_taste"

    /// Spoons, cups, a pinch, to taste.
    public var isCookingMeasure: Bool {
        switch self {
        case .tbsp, .tsp, .cup, .pinch, .toTaste: true
        default: false
        }
    }

    /// Grams or millilitres in one unit, with its dimension; nil for counts and measures.
    private var base: (dimension: Character, factor: Double)? {
        switch self {
        case .g: ("m", 1)
        case .kg: ("m", 1000)
        case .ml: ("v", 1)
        case .L: ("v", 1000)
        default: nil
        }
    }

    /// `amount` of this unit in `other`, or nil when the two cannot be compared.
    public func convert(_ amount: Double, to other: IngredientUnit) -> Double? {
        if isCookingMeasure || other.isCookingMeasure { return nil }
        if self == other { return amount }
        guard let from = base, let to = other.base, from.dimension == to.dimension else { return nil }
        return amount * from.factor / to.factor
    }
}

/// How much of an ingredient a cook needs for some servings, and how stock compares with it.
public struct IngredientNeed: Sendable, Equatable {
    /// Scaled to the servings; nil when the ingredient only needs to be there.
    public let amount: Double?
    /// The ingredient's unit (pieces when it has an amount and no unit).
    public let unit: IngredientUnit?

    public init(amount: Double?, unit: IngredientUnit?, scale: Double = 1) {
        if let amount, unit?.isCookingMeasure != true {
            self.amount = (amount * scale * 1000).rounded() / 1000
            self.unit = unit ?? .piece
        } else {
            // Measures are shown scaled too ("大さじ2" for 2 servings → "大さじ4" for 4) but never compared.
            self.amount = amount.map { ($0 * scale * 1000).rounded() / 1000 }
            self.unit = unit
        }
    }

    /// Present is enough: no amount, or a cooking measure. Cooking takes nothing for it.
    public var presenceOnly: Bool { amount == nil || unit?.isCookingMeasure == true }

    /// An item's quantity in the need's unit; nil when the units cannot be compared.
    public func covered(byQuantity quantity: Double, itemUnit: String) -> Double? {
        guard !presenceOnly, let unit, let from = IngredientUnit(rawValue: itemUnit) else { return nil }
        return from.convert(quantity, to: unit)
    }

    /// `amount` of the need's unit in an item's unit (what cooking takes from it); nil if not comparable.
    public func inItemUnit(_ amount: Double, itemUnit: String) -> Double? {
        guard !presenceOnly, let unit, let to = IngredientUnit(rawValue: itemUnit) else { return nil }
        return unit.convert(amount, to: to).map { ($0 * 1000).rounded() / 1000 }
    }

    /// How the non-expired matches stand against this need: the one rule behind /recipes, a recipe's
    /// page and cooking.
    public func standing(fresh: [StockMatch]) -> IngredientStanding {
        standing(of: fresh.map { (quantity: $0.quantity, unit: IngredientUnit(rawValue: $0.unit)) })
    }

    /// `standing(fresh:)` over the matches' quantities and units, parsed once for many needs.
    public func standing(of fresh: [(quantity: Double, unit: IngredientUnit?)]) -> IngredientStanding {
        // An item with nothing left is not there.
        guard fresh.contains(where: { $0.quantity > 0 }) else { return .missing }
        guard let amount, let unit, !presenceOnly else { return .enough }
        var have = 0.0
        var comparable = false
        for match in fresh where match.quantity > 0 {
            if let covered = match.unit.flatMap({ $0.convert(match.quantity, to: unit) }) {
                have += covered
                comparable = true
            }
        }
        // Only items in units that do not compare (a pack of chicken for 200 g): present, amount
        // unknown. The page says so; cooking takes nothing from them.
        guard comparable else { return .uncomparable }
        let missing = ((amount - have) * 1000).rounded() / 1000
        if missing <= 0 { return .enough }
        return have > 0 ? .short(missing: missing) : .missing
    }
}

/// An ingredient against the stock.
public enum IngredientStanding: Sendable, Equatable {
    /// There, and enough of it (or only needs to be there).
    case enough
    /// Some, but `missing` (in the need's unit) too little.
    case short(missing: Double)
    /// Nothing usable in stock (none, or only expired, or none of it left).
    case missing
    /// There, but in units that do not compare with the recipe's (counts as present, not taken).
    case uncomparable

    /// Counts against "ready now".
    public var isLacking: Bool {
        switch self {
        case .short, .missing: true
        case .enough, .uncomparable: false
        }
    }
}
