import GRDB

/// How far a stock item has been used, stored as its code; the code also names its label
/// (`status_opened`). The order is the order of the menus.
public enum ItemStatus: String, Codable, Sendable, CaseIterable {
    case unopened, opened
    case runningLow = "running_low"
}

extension ItemStatus: DatabaseValueConvertible {}
