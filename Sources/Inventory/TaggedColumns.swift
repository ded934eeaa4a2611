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
