import Exchange
import Foundation
import Inventory
import Testing

/// Reading an items CSV: encodings, quoting, headers, labels, line numbers.
@Suite struct ItemsCSVReaderTests {
    let words = ItemsCSVVocabulary(
        units: ["本": "bottle", "pcs": "piece", "個": "piece"], kinds: ["dairy & eggs": "dairy_eggs", "乳製品・卵": "dairy_eggs"],
        statuses: ["開封済み": "opened"])

    func read(_ data: Data, timeZone: TimeZone = .gmt) -> Result<[ImportRow], ItemsCSVFileProblem> {
        ItemsCSVReader.read(data, vocabulary: words, timeZone: timeZone)
    }

    func rows(_ text: String) throws -> [ImportRow] { try read(Data(text.utf8)).get() }

    @Test func readsTheExportColumnsWithOrWithoutBOM() throws {
        let text =
            "id,folder,name,quantity,unit,kind,due,remind_at,status,urgent,barcode,note,created_at,updated_at\r\n"
            + "7,Fridge,Milk,1.5,bottle,dairy_eggs,2026-12-01,,opened,0,4901234567894,cold,2026-01-01T00:00:00Z,2026-01-02T00:00:00Z\r\n"
        for data in [Data(text.utf8), Data([0xEF, 0xBB, 0xBF] + Array(text.utf8))] {
            let rows = try read(data).get()
            #expect(rows.count == 1)
            let row = try #require(rows.first)
            #expect(row.line == 2)
            #expect(row.id == "7")
            #expect(row.folder == "Fridge")
            #expect(row.fields["name"] == "Milk")
            #expect(row.fields["quantity"] == "1.5")
            #expect(row.fields["unit"] == "bottle")
            #expect(row.fields["status"] == "opened")
            #expect(row.fields["urgent"] == "0")
            #expect(row.fields["created_at"] == nil)
        }
    }

    @Test func quotedCellsKeepCommasNewlinesAndQuotesAndLinesCountFromTheirStart() throws {
        let rows = try rows("name,note\n\"Rice, brown\",\"line one\nline two\"\n\"Say \"\"hi\"\"\",x\n\nTea,\n")
        #expect(rows.map(\.fields["name"]) == ["Rice, brown", "Say \"hi\"", "Tea"])
        #expect(rows[0].fields["note"] == "line one\nline two")
        // The first row takes lines 2 and 3; the blank line 5 is skipped.
        #expect(rows.map(\.line) == [2, 4, 6])
    }

    @Test func headersMatchInAnyCaseUnknownColumnsAreIgnoredMissingOnesAbsent() throws {
        let rows = try rows("Colour, NAME ,Quantity\nred,Eggs,6\n")
        #expect(rows[0].fields == ["name": "Eggs", "quantity": "6"])
    }

    @Test func unitsKindsAndStatusesAsCodesOrLabelsInEitherLanguage() throws {
        let rows = try rows("name,unit,kind,status\nA,本,乳製品・卵,開封済み\nB,PCS,Dairy & Eggs,Opened\nC,Bottle,FISH,gone\n")
        #expect(rows.map { $0.fields["unit"] } == ["bottle", "piece", "bottle"])
        #expect(rows.map { $0.fields["kind"] } == ["dairy_eggs", "dairy_eggs", "fish"])
        // Unknown words stay as written, for the editor's check to report.
        #expect(rows.map { $0.fields["status"] } == ["opened", "opened", "gone"])
    }

    @Test func shiftJISFromExcelIsRead() throws {
        let text = "name,unit,note\r\n牛乳,本,冷蔵庫の奥\r\n"
        let data = try #require(text.data(using: .shiftJIS))
        #expect(String(data: data, encoding: .utf8) == nil, "the fixture must not be valid UTF-8")
        let rows = try read(data).get()
        #expect(rows[0].fields["name"] == "牛乳")
        #expect(rows[0].fields["unit"] == "bottle")
        #expect(rows[0].fields["note"] == "冷蔵庫の奥")
    }

    @Test func bytesInNoKnownEncodingAreRefusedWithTheEncodingProblem() {
        // 0x80 0x81 … are neither UTF-8 nor Shift_JIS lead/trail pairs that decode.
        let data = Data(Array("name\r\n".utf8) + [0xFF, 0xFD, 0xFF, 0xA0, 0x80])
        #expect(read(data) == .failure(.unreadableEncoding))
    }

    @Test func badFilesAreRefusedWithTheirReason() {
        #expect(read(Data()) == .failure(.empty))
        #expect(read(Data("\n\n".utf8)) == .failure(.empty))
        #expect(read(Data([0x50, 0x4B, 0x03, 0x04, 0x00, 0x00])) == .failure(.notCSV))
        #expect(read(Data("title,amount\nMilk,1\n".utf8)) == .failure(.noNameColumn))
        #expect(read(Data(count: ItemsCSVReader.maxBytes + 1)) == .failure(.tooLarge))
    }

    @Test func neutralisedFormulaCellsReadBackAsWritten() throws {
        let rows = try rows("name,note\n'=SUM(A1),'-2 days\n")
        #expect(rows[0].fields["name"] == "=SUM(A1)")
        #expect(rows[0].fields["note"] == "-2 days")
    }

    @Test func reminderTimesAsInstantsOrSpreadsheetTextBecomeTheFormsLocalTime() throws {
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let data = Data("name,remind_at\nA,2026-11-22T00:30:00Z\nB,2026-11-22 09:30\nC,2026-11-22T09:30\n".utf8)
        let rows = try read(data, timeZone: tokyo).get()
        #expect(rows.map { $0.fields["remind_at"] } == ["2026-11-22T09:30", "2026-11-22T09:30", "2026-11-22T09:30"])
    }
}

extension ItemsCSVReaderTests {
    @Test func moreRowsThanOneTransactionShouldHoldAreRefused() {
        let text = "name\n" + String(repeating: "a\n", count: ItemsCSVReader.maxRows + 1)
        #expect(read(Data(text.utf8)) == .failure(.tooManyRows))
        let fits = "name\n" + String(repeating: "a\n", count: ItemsCSVReader.maxRows)
        #expect((try? read(Data(fits.utf8)).get().count) == ItemsCSVReader.maxRows)
    }
}
