import Foundation
import GRDB
import Synchronization
import TestSupport
import Testing

@testable import Inventory

/// GRDB keeps every cached statement for the life of a connection: a statement whose text grew
/// with the request (`kind IN (?, ?, …)` per count of `kind=` in the query) kept memory forever.
@Suite("List filters")
struct ListFilterStatementTests {
    /// A household whose database records the text of every statement it runs.
    final class StatementLog: Sendable {
        let texts = Mutex<[String]>([])
    }

    final class TracedHousehold: Sendable {
        let log = StatementLog()
        let items: Items
        let household: HouseholdScope

        init() throws {
            var configuration = AppDatabase.configuration()
            let log = self.log
            configuration.prepareDatabase { db in
                db.trace(options: .statement) { event in
                    if case .statement(let statement) = event { log.texts.withLock { $0.append(statement.sql) } }
                }
            }
            let database = try AppDatabase(DatabaseQueue(configuration: configuration))
            let accounts = Accounts(database: database, hasher: CountingHasher(), clock: ManualClock().wall)
            let token = try accounts.setUp(
                householdName: "Home", ownerName: "Aki", login: "aki", password: "correct horse battery", language: "en", userAgent: "test")
            household = try #require(try accounts.session(token: token)).household
            items = Items(database: database)
        }

        /// The distinct texts of the statements that read items, run while `body` runs.
        func itemStatements(_ body: () throws -> Void) rethrows -> Set<String> {
            log.texts.withLock { $0.removeAll() }
            try body()
            return Set(log.texts.withLock { $0 }.filter { $0.contains("FROM item WHERE") })
        }
    }

    @Test func oneKindAndNineKindsRunTheSameStatements() throws {
        let household = try TracedHousehold()
        let folder = try #require(try household.items.folders(in: household.household, kind: .stock).first)
        let one = try household.itemStatements {
            _ = try household.items.page(of: folder, filter: ListFilter(kinds: [ItemKind.allCases[0].rawValue]), page: 1)
        }
        let all = try household.itemStatements {
            for count in 2...ItemKind.allCases.count {
                _ = try household.items.page(of: folder, filter: ListFilter(kinds: ItemKind.allCases.prefix(count).map(\.rawValue)), page: 1)
            }
        }
        #expect(one.count == 2, "a count and a page: \(one)")
        #expect(all == one)
    }

    @Test func duplicateAndUnknownKindsAndStatusesAreDropped() {
        let filter = ListFilter(kinds: ["meat", "meat", "fish", "poison", "meat", "fish", ""], status: "gone")
        #expect(filter.kinds == [.meat, .fish])
        #expect(filter.status == nil)
        #expect(ListFilter(kinds: Array(repeating: "meat", count: 5000)).kinds == [.meat])
        #expect(ListFilter(status: "opened").status == .opened)
    }
}
