import Foundation

/// What a Grocy import brought in, and what it left out and why.
public struct GrocyReport: Sendable, Equatable {
    public var stockLists = 0
    public var shoppingLists = 0
    /// Zaiko remembers products by barcode: one per distinct valid barcode.
    public var products = 0
    public var stockItems = 0
    public var shoppingItems = 0
    public var photos = 0
    public var recipes = 0
    public var ingredients = 0
    /// Every Grocy unit in use and the Zaiko unit it became (nil: none fits, counted in pieces).
    public var units: [UnitMapping] = []
    public var skipped: [Skipped] = []

    public struct UnitMapping: Sendable, Equatable {
        public var grocyName: String
        public var zaikoUnit: String?
        /// Items and products counted in it.
        public var uses: Int
    }

    public enum Reason: Sendable, Equatable {
        case otherData(String)
        case invalidBarcode
        case sharedBarcode
        case productWithoutBarcode
        case missingPicture
        case undecodablePicture
        case picturesWithoutFolder
        case doneShoppingLine
        case emptyShoppingLine
        case stockOfMissingProduct
        case stockWithoutLocation
        case unreadableDate
        case shortenedName
        case ingredientWithoutUnit
        case recipePictures
    }

    /// One line of the report: how many things, a few of their names.
    public struct Skipped: Sendable, Equatable {
        public var reason: Reason
        public var count: Int
        public var examples: [String]

        public init(reason: Reason, count: Int, examples: [String]) {
            self.reason = reason
            self.count = count
            self.examples = examples
        }
    }

    mutating func skip(_ reason: Reason, _ example: String, count: Int = 1) {
        if let index = skipped.firstIndex(where: { $0.reason == reason }) {
            skipped[index].count += count
            if skipped[index].examples.count < 3, !skipped[index].examples.contains(example) { skipped[index].examples.append(example) }
        } else {
            skipped.append(Skipped(reason: reason, count: count, examples: [example]))
        }
    }

    public func skipped(_ reason: Reason) -> Skipped? { skipped.first { $0.reason == reason } }

    /// The report as printed by `zaiko import grocy`.
    public var lines: [String] {
        var lines = [
            "Imported: \(stockLists) stock list(s), \(stockItems) item(s) in stock, \(shoppingLists) shopping list(s) with \(shoppingItems) item(s), "
                + "\(products) product(s) by barcode, \(recipes) recipe(s) with \(ingredients) ingredient line(s), \(photos) photo(s)."
        ]
        if !units.isEmpty {
            lines.append("Units:")
            for unit in units {
                let target = unit.zaikoUnit.map { "→ \($0)" } ?? "→ piece (no Zaiko unit fits; amounts kept as they were)"
                lines.append("  \(unit.grocyName) \(target), \(unit.uses) use(s)")
            }
        }
        if !skipped.isEmpty { lines.append("Not imported or changed:") }
        for entry in skipped {
            let names = entry.examples.map { "\"\($0)\"" }.joined(separator: ", ")
            let more = entry.count > entry.examples.count && !entry.examples.isEmpty ? ", …" : ""
            lines.append("  \(entry.count) \(Self.sentence(entry.reason))\(names.isEmpty ? "" : ": ")\(names)\(more)")
        }
        return lines
    }

    static func sentence(_ reason: Reason) -> String {
        switch reason {
        case .ingredientWithoutUnit: "ingredient amount(s) in a unit Zaiko cannot compare, kept as \"only needs to be there\""
        case .recipePictures: "recipe picture(s) not imported"
        case .otherData(let what): "\(what) skipped, Zaiko has nothing like them"
        case .invalidBarcode: "barcode(s) skipped, not 6 to 14 digits or a wrong check digit"
        case .sharedBarcode: "barcode(s) skipped, another product already has them"
        case .productWithoutBarcode: "product(s) without a barcode, kept only as the names of their items (Zaiko remembers products by barcode)"
        case .missingPicture: "picture(s) skipped, the file is not in the picture folder"
        case .undecodablePicture: "picture(s) skipped, the file is not an image Zaiko can read"
        case .picturesWithoutFolder: "picture(s) skipped, no --photos folder was given"
        case .doneShoppingLine: "shopping list line(s) skipped, already ticked off in Grocy"
        case .emptyShoppingLine: "shopping list line(s) skipped, their product no longer exists and they have no note"
        case .stockOfMissingProduct: "stock entr(ies) skipped, their product no longer exists"
        case .stockWithoutLocation: "stock entr(ies) skipped, there is no location to put them in"
        case .unreadableDate: "best-before date(s) not understood, imported without a due date"
        case .shortenedName: "name(s) longer than 100 characters, shortened"
        }
    }
}
