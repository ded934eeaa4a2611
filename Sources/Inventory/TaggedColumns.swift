import GRDB
import Tagged

/// A typed id (`Tagged<Item, Int64>`, …) is stored, bound and read as its raw value, so that records
/// and queries use typed ids while the columns stay plain integers.
extension Tagged: @retroactive SQLExpressible where RawValue: DatabaseValueConvertible {}
extension Tagged: @retroactive StatementBinding where RawValue: DatabaseValueConvertible {}
extension Tagged: @retroactive DatabaseValueConvertible where RawValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { rawValue.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(dbValue).map(Self.init(rawValue:))
    }
}

/// Read straight from the statement's column when the raw value can be (`Int64`), as GRDB reads the
/// raw value itself: without it every id of every row went through a `DatabaseValue` first.
extension Tagged: @retroactive StatementColumnConvertible where RawValue: StatementColumnConvertible {
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let rawValue = RawValue(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self.init(rawValue: rawValue)
    }
}
