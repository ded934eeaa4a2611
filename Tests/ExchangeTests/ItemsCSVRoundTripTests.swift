import Exchange
import Foundation
import GRDB
import Inventory
import TestSupport
import Testing

/// The export's items.csv read back by the import: the same columns, BOM, CRLF, neutralised
/// formula cells, reminders as UTC instants. An unchanged file changes nothing.
@Suite struct ItemsCSVRoundTripTests {
    @Test func anUnchangedExportUpdatesEveryItemToItselfAndWritesNoHistory() throws {
        let fixture = try Fixture()
        let owner = try fixture.owner
        let fridge = try fixture.firstFolder(.stock)
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        var milk = ItemInput()
        milk.name = "牛乳"
        milk.quantity = "1.5"
        milk.unit = "bottle"
        milk.kind = "dairy_eggs"
        milk.due = "2026-12-01"
        milk.remindAt = "2026-11-30T09:30"
        milk.status = "opened"
        milk.note = "-2 days, \"cold\"\nback shelf"
        let id = try fixture.items.register([milk], into: fridge, in: owner.household, by: owner.memberId, timeZone: tokyo)[0]
        let item = try fixture.items.item(id, in: owner.household)
        let folder = try fixture.items.folder(fridge, in: owner.household)
        let before = try fixture.items.history(of: id, in: owner.household).count

        // As the export writes it (HouseholdExport.spreadsheets, SpreadsheetCSV).
        let text =
            "id,folder,name,quantity,unit,kind,due,remind_at,status,urgent,barcode,note,created_at,updated_at\r\n"
            + "\(id),\(folder.name),牛乳,1.5,bottle,dairy_eggs,2026-12-01,\(item.remindAt!),opened,0,,\"'-2 days, \"\"cold\"\"\nback shelf\","
            + "\(item.createdAt),\(item.updatedAt)\r\n"
        let rows = try ItemsCSVReader.read(Data([0xEF, 0xBB, 0xBF] + Array(text.utf8)), vocabulary: ItemsCSVVocabulary(), timeZone: tokyo).get()
        let plan = try fixture.items.runImport(
            rows, defaultFolderId: fridge, folderIds: [folder.name.lowercased(): fridge], in: owner.household, by: owner.memberId,
            timeZone: tokyo)
        #expect(plan.problems == [])
        #expect((plan.newCount, plan.updatedCount) == (0, 1))
        #expect(try fixture.items.item(id, in: owner.household) == item)
        #expect(try fixture.items.history(of: id, in: owner.household).count == before)
    }
}
