import Foundation
import Testing

@testable import Exchange

/// Formula injection in exported CSV (issue 22, item 9): every start a spreadsheet may run as a
/// formula, the full-width ones a Japanese spreadsheet reads as ASCII and the `|` of a DDE call
/// included, gets an apostrophe; the import reads the cell back as it was.
@Suite struct SpreadsheetCSVTests {
    @Test(arguments: ["=1+1", "+1", "-1", "@SUM(A1)", "＝HYPERLINK(\"http://evil\")", "＋1", "－1", "＠SUM(A1)", "|calc", "\t=1", "\r=1"])
    func aFormulaStartIsNeutralisedAndReadBackAsWritten(cell: String) throws {
        #expect(SpreadsheetCSV.neutralised(cell) == "'" + cell)
        let bytes = try SpreadsheetCSV.bytes(header: ["name"], rows: [[cell]])
        let rows = try ItemsCSVReader.read(Data(bytes), vocabulary: ItemsCSVVocabulary(), timeZone: .gmt).get()
        #expect(rows.first?.fields["name"] == cell)
    }

    @Test(arguments: ["Milk", "牛乳", "1-2", "a=b", "'quoted", "ー長音", "・milk", "", " =1"])
    func otherCellsAreWrittenAsTheyAre(cell: String) {
        #expect(SpreadsheetCSV.neutralised(cell) == cell)
    }
}
