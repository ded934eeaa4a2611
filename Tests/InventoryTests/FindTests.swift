import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// Finding things: the household-wide search of the folders page and the "Expired" list filter.
@Suite("Find: household search, expired filter")
struct FindTests {
    /// The fixture's household with helpers to put items in its starter folders by name.
    struct Home {
        let fixture: Fixture
        let utc = TimeZone(identifier: "UTC")!

        init() throws { fixture = try Fixture() }

        var items: Items { fixture.items }
        var household: HouseholdScope { fixture.household }

        func folder(_ name: String, in other: HouseholdScope? = nil) throws -> Folder {
            try #require(try items.folders(in: other ?? household).first { $0.name == name }, "no folder \(name)")
        }

        @discardableResult
        func add(_ name: String, to folderName: String = "Fridge", in other: HouseholdScope? = nil, _ configure: (inout ItemInput) -> Void = { _ in }) throws
            -> Item.ID
        {
            var input = ItemInput()
            input.name = name
            configure(&input)
            let owner = other ?? household
            let member = try #require(
                try fixture.database.writer.read { db in
                    try Member.ID.fetchOne(db, sql: "SELECT id FROM member WHERE household_id = ?", arguments: [owner.householdId])
                })
            return try items.register([input], into: try folder(folderName, in: owner).id, in: owner, by: member, timeZone: utc)[0]
        }

        func search(_ text: String, perFolder: Int = HouseholdSearch.perFolder) throws -> [String: [String]] {
            let result = try items.search(text, in: household, perFolder: perFolder)
            return Dictionary(uniqueKeysWithValues: result.groups.map { ($0.folder.name, $0.items.map(\.name)) })
        }
    }

    // MARK: - Household search

    @Test func searchGroupsMatchesByFolderInTheHouseholdsOrderEachInItsListOrder() throws {
        let home = try Home()
        try home.add("牛乳 (new)", to: "Fridge") { $0.due = "2026-12-10" }
        try home.add("牛乳 (old)", to: "Fridge") { $0.due = "2026-11-30" }
        try home.add("牛乳 (no date)", to: "Fridge")
        try home.add("Tea", to: "Pantry") { $0.note = "with 牛乳" }
        try home.add("牛乳", to: "Supermarket")
        try home.add("牛乳 urgent", to: "Supermarket") { $0.urgent = true }
        try home.add("Beer", to: "Freezer")

        let result = try home.items.search("  牛乳 ", in: home.household)
        #expect(result.text == "牛乳")
        #expect(result.groups.map(\.folder.name) == ["Fridge", "Pantry", "Supermarket"])
        #expect(result.groups.map(\.total) == [3, 1, 2])
        #expect(result.total == 6)
        // Stock: earliest due first, undated last. Shopping: urgent first, then by name.
        #expect(result.groups[0].items.map(\.name) == ["牛乳 (old)", "牛乳 (new)", "牛乳 (no date)"])
        #expect(result.groups[2].items.map(\.name) == ["牛乳 urgent", "牛乳"])
    }

    @Test func searchFoldsLikeTheListSearch() throws {
        let home = try Home()
        try home.add("Milk")
        try home.add("ｶﾚｰ", to: "Pantry")
        try home.add("ＢＥＥＲ", to: "Freezer")
        try home.add("100% juice", to: "Pantry")
        try home.add("1000 yen rice", to: "Pantry")
        for text in ["MILK", "ｍｉｌｋ", "カレー", "beer", "100%", "_", "ギュウニュウ", "milk chocolate"] {
            let listFound = Set(
                try ["Fridge", "Pantry", "Freezer"].flatMap {
                    try home.items.page(of: home.folder($0), filter: ListFilter(text: text), page: 1).items.map(\.name)
                })
            let found = Set(try home.search(text).values.flatMap { $0 })
            #expect(found == listFound, "\(text)")
        }
        #expect(try home.search("ｍｉｌｋ") == ["Fridge": ["Milk"]])
        #expect(try home.search("カレー") == ["Pantry": ["ｶﾚｰ"]])
        #expect(try home.search("100%") == ["Pantry": ["100% juice"]])
        #expect(try home.search("ギュウニュウ").isEmpty)
    }

    @Test func searchShowsTheFirstRowsOfAFolderAndCountsThemAll() throws {
        let home = try Home()
        for number in 0..<25 { try home.add(String(format: "Milk %02d", number), to: "Pantry") }
        try home.add("Milk", to: "Fridge")
        let result = try home.items.search("milk", in: home.household, perFolder: 10)
        #expect(result.groups.map(\.folder.name) == ["Fridge", "Pantry"])
        #expect(result.groups[1].total == 25)
        #expect(result.groups[1].items.map(\.name) == (0..<10).map { String(format: "Milk %02d", $0) })
        #expect(result.total == 26)
    }

    @Test func searchLeavesOutTheTrashOtherHouseholdsAndEmptyText() throws {
        let home = try Home()
        let trashed = try home.add("Old milk")
        try home.add("Milk")
        let owner = try home.fixture.owner
        try home.items.trash([trashed], in: home.household, by: owner.memberId)
        let grandma = try home.fixture.otherHousehold()
        try home.add("Their milk", in: grandma.household)

        #expect(try home.search("milk") == ["Fridge": ["Milk"]])
        #expect(try home.items.search("   ", in: home.household).groups.isEmpty)
        #expect(try home.items.search("milk", in: grandma.household).groups.map { $0.items.map(\.name) } == [["Their milk"]])
    }

    @Test func searchReadsItsIndexForThisHouseholdOnly() throws {
        let home = try Home()
        try home.add("Milk")
        let plan = try home.fixture.database.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + Items.searchSQL, arguments: [home.household.householdId, "%milk%", 10])
                .map { $0["detail"] as String }.joined(separator: " | ")
        }
        #expect(plan.contains("USING INDEX item_search (household_id=?)"), "\(plan)")
        #expect(!plan.contains("SCAN i "), "\(plan)")
    }

    // MARK: - Expired filter

    @Test func theExpiredFilterKeepsWhatIsExpiredInTheHouseholdsTimeZoneAndCombines() throws {
        let home = try Home()
        try home.add("Old milk") {
            $0.due = "2026-11-20"
            $0.kind = "dairy_eggs"
        }
        try home.add("Old salmon") {
            $0.due = "2026-11-21"
            $0.kind = "fish"
            $0.status = "opened"
        }
        try home.add("Tofu") { $0.due = "2026-11-22" }
        try home.add("Natto") { $0.due = "2026-11-24" }
        try home.add("Rice")
        let fridge = try home.folder("Fridge")
        // 2026-11-21 23:30 UTC is already the 22nd in Tokyo: the salmon is expired there, not in UTC.
        let now = utc("2026-11-21T23:30:00Z")
        func names(_ zone: String, _ filter: (DueWindow) -> ListFilter) throws -> [String] {
            let window = DueWindow(timeZone: TimeZone(identifier: zone)!, soonDays: 3, now: now)
            let page = try home.items.page(of: fridge, filter: filter(window), page: 1)
            #expect(page.total == page.items.count)
            // The filter agrees with the rows' own word for it.
            #expect(page.items.allSatisfy { window.state(of: $0.due) == .expired })
            return page.items.map(\.name)
        }
        #expect(try names("UTC") { ListFilter(expiredIn: $0) } == ["Old milk"])
        #expect(try names("Asia/Tokyo") { ListFilter(expiredIn: $0) } == ["Old milk", "Old salmon"])
        #expect(try names("Asia/Tokyo") { ListFilter(kinds: ["fish"], expiredIn: $0) } == ["Old salmon"])
        #expect(try names("Asia/Tokyo") { ListFilter(status: "opened", expiredIn: $0) } == ["Old salmon"])
        #expect(try names("Asia/Tokyo") { ListFilter(status: "running_low", expiredIn: $0) }.isEmpty)
        #expect(try names("Asia/Tokyo") { ListFilter(text: "milk", expiredIn: $0) } == ["Old milk"])
        #expect(ListFilter(expiredIn: DueWindow(timeZone: .gmt, soonDays: 3, now: now)).isFiltered)
    }
}

/// Half-width katakana with a voiced mark (ｷﾞｭｳﾆｭｳ, as old systems and some CSV files write it) is
/// found by its full-width spelling and the other way round, and rows folded before v12 are mended.
struct HalfWidthKatakanaTests {
    @Test func foldingComposesTheVoicedMarkSoSQLiteSeesTheSameBytes() {
        #expect(Array(SearchText.fold("ｷﾞｭｳﾆｭｳ").utf8) == Array("ギュウニュウ".utf8))
        #expect(Array(SearchText.fold("ﾊﾟﾝ").utf8) == Array("パン".utf8))
    }

    @Test func searchFindsHalfWidthKatakanaByItsFullWidthSpelling() throws {
        let fixture = try Fixture()
        var input = ItemInput()
        input.name = "ｷﾞｭｳﾆｭｳ"
        let fridge = try fixture.firstFolder(.stock)
        _ = try fixture.items.register([input], into: fridge, in: fixture.household, by: try fixture.owner.memberId, timeZone: .gmt)
        #expect(try fixture.items.search("ギュウ", in: fixture.household).groups.flatMap(\.items).map(\.name) == ["ｷﾞｭｳﾆｭｳ"])
    }

    @Test func migrationTwelveFoldsOldRowsAnew() throws {
        let queue = try DatabaseQueue()
        try Schema.migrator.migrate(queue, upTo: "v11 recipes and cooking")
        let decomposed = "ｷﾞｭｳﾆｭｳ".precomposedStringWithCompatibilityMapping.lowercased()
        try queue.write { db in
            try db.execute(sql: "INSERT INTO household (name, created_at) VALUES ('Home', '2026-11-23T00:00:00Z')")
            try db.execute(sql: "INSERT INTO folder (household_id, name, kind, created_at) VALUES (1, 'Fridge', 'stock', '2026-11-23T00:00:00Z')")
            try db.execute(
                sql: """
                    INSERT INTO item (household_id, folder_id, name, search_text, created_at, updated_at)
                    VALUES (1, 1, 'ｷﾞｭｳﾆｭｳ', ?, '2026-11-23T00:00:00Z', '2026-11-23T00:00:00Z')
                    """, arguments: [decomposed + "\n"])
        }
        try Schema.migrator.migrate(queue)
        let stored = try queue.read { db in try String.fetchOne(db, sql: "SELECT search_text FROM item")! }
        #expect(Array(stored.utf8) == Array("ギュウニュウ\n".utf8))
    }
}
