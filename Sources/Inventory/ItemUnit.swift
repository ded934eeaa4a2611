import GRDB

/// What an item's quantity counts, stored as its code; the code also names its labels (`unit_g`,
/// `qty_g`). The order is the order of the menus.
public enum ItemUnit: String, Codable, Sendable, CaseIterable {
    case piece, pack, bottle, can, bag, box, g, kg, ml, L
}

extension ItemUnit: DatabaseValueConvertible {}
