import GRDB

/// What sort of food or thing an item is, stored as its code; the code also names its label
/// (`kind_meat`). The order is the order of the menus.
public enum ItemKind: String, Codable, Sendable, CaseIterable {
    case meat, fish, vegetables, fruit
    case dairyEggs = "dairy_eggs"
    case drinks, seasonings, prepared, other
}

extension ItemKind: DatabaseValueConvertible {}
