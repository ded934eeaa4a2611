import CSV
import Foundation

/// One CSV file for spreadsheets: UTF-8 with a byte order mark (Excel then reads Japanese right),
/// CRLF line ends and RFC 4180 quoting (CSV.swift's writer), and no cell a spreadsheet would run
/// as a formula.
enum SpreadsheetCSV {
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// `rows` under `header`, as the bytes of the file.
    static func bytes(header: [String], rows: [[String]]) throws -> [UInt8] {
        let stream = OutputStream(toMemory: ())
        stream.open()
        let writer = try CSVWriter(stream: stream, codecType: UTF8.self, newline: .crlf)
        try writer.write(row: header)
        for row in rows { try writer.write(row: row.map(neutralised)) }
        stream.close()
        let data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data ?? Data()
        return byteOrderMark + [UInt8](data)
    }

    /// What a spreadsheet may read a cell starting with as a formula: = + - @ (OWASP's list), their
    /// full-width forms ＝ ＋ － ＠ (a Japanese spreadsheet reads those as the ASCII ones), | (a DDE
    /// call in older Excel), and a tab or CR before one.
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\u{FF1D}", "\u{FF0B}", "\u{FF0D}", "\u{FF20}", "|", "\t", "\r"]

    /// A cell a spreadsheet would read as a formula gets a leading apostrophe, so it shows as the
    /// text it is (OWASP's advice on CSV injection).
    static func neutralised(_ cell: String) -> String {
        guard let first = cell.unicodeScalars.first, formulaStarts.contains(first) else { return cell }
        return "'" + cell
    }

    /// A quantity as a plain decimal with a dot: 2, 0.5, 1.25 (never 1e-05 or a locale's comma).
    static func decimal(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        let text = String(value)
        guard text.contains("e") else { return text }
        var fixed = String(format: "%.10f", value)
        while fixed.hasSuffix("0") { fixed.removeLast() }
        if fixed.hasSuffix(".") { fixed.removeLast() }
        return fixed
    }
}
