/// One ingredient line split into what a recipe stores: the name looked for in stock, an amount
/// and a unit when the line gives them, and whatever else it said ("chopped", "2-3 cloves").
public struct ParsedIngredient: Sendable, Equatable, CustomStringConvertible {
    public var name: String
    public var amount: Double?
    /// One of `IngredientLine.unitCodes`, or nil when the line names none.
    public var unit: String?
    public var note: String

    public init(name: String, amount: Double? = nil, unit: String? = nil, note: String = "") {
        self.name = name
        self.amount = amount
        self.unit = unit
        self.note = note
    }

    public var description: String {
        "\(name) | \(amount.map { "\($0)" } ?? "-") | \(unit ?? "-") | \(note)"
    }
}
