import GRDB
import Tagged
import Testing

@testable import Inventory

/// A typed id is bound and read as the plain integer its column holds.
@Suite struct TaggedColumnsTests {
    private enum Thing {}
    private typealias ThingID = Tagged<Thing, Int64>

    @Test func aTypedIdIsBoundAndReadAsItsRawValue() throws {
        let queue = try DatabaseQueue()
        let read = try queue.read { db in
            try ThingID.fetchOne(db, sql: "SELECT ? + 1", arguments: [ThingID(rawValue: 41)])
        }
        #expect(read == ThingID(rawValue: 42))
    }

    @Test func aNullColumnIsNoId() throws {
        let queue = try DatabaseQueue()
        let read = try queue.read { db in try ThingID?.fetchOne(db, sql: "SELECT NULL") }
        #expect(read == .some(nil))
    }
}
