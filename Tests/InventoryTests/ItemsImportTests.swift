import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// Checking and writing imported rows: the editor's validation per cell, updates by id only
/// within the household, one transaction, history.
@Suite struct ItemsImportTests {
    let fixture: Fixture
    let owner: SignedIn
    let fridge: Int64
    let shopping: Int64

    init() throws {
        fixture = try Fixture()
        owner = try fixture.owner
        fridge = try fixture.firstFolder(.stock)
        shopping = try fixture.firstFolder(.shopping)
    }

    var items: Items { fixture.items }

    func folderIds() throws -> [String: Int64] {
        Dictionary(try items.folders(in: owner.household).map { ($0.name.lowercased(), $0.id!) }, uniquingKeysWith: { a, _ in a })
    }

    func plan(_ rows: [ImportRow]) throws -> ImportPlan {
        try items.planImport(rows, defaultFolderId: fridge, folderIds: folderIds(), in: owner.household, timeZone: .gmt)
    }

    func run(_ rows: [ImportRow]) throws -> ImportPlan {
        try items.runImport(rows, defaultFolderId: fridge, folderIds: folderIds(), in: owner.household, by: owner.memberId, timeZone: .gmt)
    }

    func count() throws -> Int { try fixture.database.writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM item")! } }

    func register(_ name: String, in other: HouseholdScope? = nil, folder: Int64? = nil) throws -> Int64 {
        var input = ItemInput()
        input.name = name
        let household = other ?? owner.household
        let member = other == nil ? owner.memberId : try fixture.accounts.members(in: household)[0].id!
        return try items.register([input], into: folder ?? fridge, in: household, by: member, timeZone: .gmt)[0]
    }

    @Test func cellsAreCheckedWithTheEditorsMessagesByLineAndColumn() throws {
        let plan = try plan([
            ImportRow(line: 2, fields: ["name": "Milk", "quantity": "2"]),
            ImportRow(line: 3, fields: ["name": "", "quantity": "lots", "due": "soon", "unit": "crate"]),
            ImportRow(line: 4, folder: "Garage", fields: ["name": "Bolts", "urgent": "maybe"]),
        ])
        #expect(plan.newCount == 1)
        #expect(
            plan.problems.map { "\($0.line) \($0.column) \($0.problem)" } == [
                "3 name itemNameRequired", "3 quantity quantityInvalid", "3 unit unitInvalid", "3 due dueInvalid",
                "4 folder importFolderUnknown", "4 urgent urgentInvalid",
            ])
        #expect(plan.problems[1].value == "lots")
        #expect(try count() == 0)
    }

    @Test func anIdUpdatesOnlyAnItemOfThisHousehold() throws {
        let milk = try register("Milk")
        let other = try fixture.accounts.createHousehold(name: "Elsewhere")
        _ = try fixture.accounts.acceptInvitation(token: other, name: "Bo", login: "bo", password: Fixture.password, userAgent: "")
        let otherHousehold = try fixture.database.writer.read { HouseholdScope(try Household.ID.fetchOne($0, sql: "SELECT MAX(id) FROM household")!) }
        let otherFolder = try #require(try items.folders(in: otherHousehold, kind: .stock).first?.id)
        let foreign = try register("Theirs", in: otherHousehold, folder: otherFolder)

        let plan = try run([
            ImportRow(line: 2, id: "\(milk)", fields: ["name": "Milk", "quantity": "3"]),
            ImportRow(line: 3, id: "\(foreign)", fields: ["name": "Stolen"]),
            ImportRow(line: 4, id: "999999", fields: ["name": "Ghost"]),
        ])
        #expect(plan.problems.map { "\($0.line) \($0.column) \($0.problem)" } == ["3 id importIdUnknown", "4 id importIdUnknown"])
        // A problem anywhere: nothing written, not even the good line.
        #expect(try items.item(milk, in: owner.household).quantity == 1)
        #expect(try items.item(foreign, in: otherHousehold).name == "Theirs")
    }

    @Test func aCleanImportWritesNewAndUpdatedItemsWithHistory() throws {
        let milk = try register("Milk")
        let plan = try run([
            ImportRow(line: 2, id: "\(milk)", fields: ["name": "Milk", "quantity": "3", "status": "opened"]),
            ImportRow(line: 3, fields: ["name": "Eggs", "quantity": "10", "kind": "dairy_eggs"]),
            ImportRow(line: 4, folder: try items.folder(shopping, in: owner.household).name, fields: ["name": "Bread", "urgent": "1"]),
        ])
        #expect(plan.problems.isEmpty)
        #expect((plan.newCount, plan.updatedCount) == (2, 1))
        let updated = try items.item(milk, in: owner.household)
        #expect(updated.quantity == 3)
        #expect(updated.status == .opened)
        #expect(updated.folderId == fridge, "an update without a folder keeps the item where it is")
        #expect(try items.history(of: milk, in: owner.household).first?.kind == "changed")
        let bread = try #require(try items.page(of: items.folder(shopping, in: owner.household), filter: ListFilter(), page: 1).items.first)
        #expect(bread.name == "Bread")
        #expect(bread.urgent)
        #expect(try count() == 3)
    }

    @Test func anIdTwiceInOneFileIsAProblem() throws {
        let milk = try register("Milk")
        let plan = try plan([ImportRow(line: 2, id: "\(milk)", fields: ["name": "A"]), ImportRow(line: 3, id: "\(milk)", fields: ["name": "B"])])
        #expect(plan.problems.map(\.problem) == [.importIdRepeated])
    }
}
