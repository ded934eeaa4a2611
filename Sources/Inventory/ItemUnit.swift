import GRDB

/// What an item's quantity counts, stored as its code; the code also names its labels (`unit_g`,
/// `qty_g`). The order is the order of the menus.
public enum ItemUnit: String, Codable, Sendable, CaseIterable {
    case piece, pack, bottle, can, bag, box, g, kg, ml, L
}

extension ItemUnit: DatabaseValueConvertible {}

extension ItemUnit {
    /// What one tap of a row's − or + changes: a whole one of what is counted, and an amount one
    /// takes at a time of what is weighed or measured (one tap on 300 g is 250 g, not 299 g).
    public var step: Double {
        switch self {
        case .piece, .pack, .bottle, .can, .bag, .box: 1
        case .g: 50
        case .ml: 100
        case .kg, .L: 0.1
        }
    }
}
